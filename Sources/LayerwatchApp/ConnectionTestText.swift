import StreamKit

/// The sentence the printer dialog shows after "Test Connection".
enum ConnectionTestText {
    static func describe(_ report: StreamProbe.Report) -> String {
        if let error = report.error { return error.message }
        var parts: [String] = []
        if let codec = report.codec { parts.append(codec.uppercased()) }
        if let width = report.width, let height = report.height { parts.append("\(width)×\(height)") }
        var text = parts.isEmpty ? tr("Connected.") : String(format: tr("Connected: %@."), parts.joined(separator: " "))
        if let first = report.timeToFirstFrame {
            text += " First picture after \(String(format: "%.1f", first)) s."
        }
        if let cause = report.fallbackCause {
            text += " " + String(format: tr("WebRTC failed, so its MJPEG plays: %@"), cause.message)
        }
        return text
    }
}
