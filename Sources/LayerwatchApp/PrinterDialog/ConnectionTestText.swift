import StreamKit

/// The sentence the printer dialog shows after "Test Connection": the camera's, or for a Creality
/// printer the camera's line after its status line (`CrealityTestText`).
enum ConnectionTestText {
    /// What the probe found; nil when the camera's session in its tab answered instead (a second
    /// client would be refused by some cameras). `asCamera` words it as a printer's camera line.
    static func describe(_ report: StreamProbe.Report?, asCamera: Bool = false) -> String {
        guard let report else {
            return asCamera ? tr("Camera connected — it is streaming in its tab right now.")
                            : tr("Connected — this camera is streaming in its tab right now.")
        }
        if let error = report.error { return error.message }
        var parts: [String] = []
        if let codec = report.codec { parts.append(codec.uppercased()) }
        if let width = report.width, let height = report.height { parts.append("\(width)×\(height)") }
        let details = parts.joined(separator: " ")
        var text = switch (asCamera, parts.isEmpty) {
        case (false, true): tr("Connected.")
        case (false, false): String(format: tr("Connected: %@."), details)
        case (true, true): tr("Camera connected.")
        case (true, false): String(format: tr("Camera connected: %@."), details)
        }
        if let first = report.timeToFirstFrame {
            text += " " + String(format: tr("First picture after %.1f s."), first)
        }
        if let cause = report.fallbackCause {
            text += " " + String(format: tr("WebRTC failed, so its MJPEG plays: %@"), cause.message)
        }
        return text
    }
}
