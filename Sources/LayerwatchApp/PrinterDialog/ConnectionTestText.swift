import StatusKit
import StreamKit

/// What the printer dialog's Test Connection rows say when a check passed: a camera's row what its
/// probe found, the status row what the printer reported (a Creality printer's, `CrealityTestText`).
/// A failed check's row says the failure's own sentence.
enum ConnectionTestText {
    /// What the probe found; nil when the camera's session in its tab answered instead (a second
    /// client would be refused by some cameras).
    static func describe(_ report: StreamProbe.Report?) -> String {
        guard let report else { return tr("Connected — this camera is streaming in its tab right now.") }
        if let error = report.error { return error.message }
        var parts: [String] = []
        if let codec = report.codec { parts.append(codec.uppercased()) }
        if let width = report.width, let height = report.height { parts.append("\(width)×\(height)") }
        var text = parts.isEmpty ? tr("Connected.") : String(format: tr("Connected: %@."), parts.joined(separator: " "))
        if let first = report.timeToFirstFrame {
            text += " " + String(format: tr("First picture after %.1f s."), first)
        }
        if let cause = report.fallbackCause {
            text += " " + String(format: tr("WebRTC failed, so its MJPEG plays: %@"), cause.message)
        }
        return text
    }

    /// The status connection was accepted: what the printer reported first, or that it took the
    /// login without reporting in the few seconds a test waits.
    static func status(_ status: PrinterStatus?) -> String {
        guard let status else { return tr("Connected: the printer accepted the connection.") }
        return String(format: tr("Connected: the printer says it is “%@”."), StatusText.state(of: status))
    }
}
