import Foundation
import StreamKit

/// Renders a probe report for a terminal or as JSON, and maps its error kind to an exit code. Both
/// forms are terminal-safe: what a camera sent (a reason phrase, a codec name) cannot act on the
/// terminal (`TerminalText`).
enum ProbeReportFormatter {
    static func text(_ report: StreamProbe.Report) -> String {
        var rows: [(label: String, value: String)] = []
        // TRANSLATORS: the probe report's row labels (`layerwatch probe`); keep them short.
        if let codec = report.codec { rows.append((tr("codec"), codec)) }
        if let cause = report.fallbackCause {
            rows.append((tr("fallback"), String(format: tr("MJPEG, as WebRTC failed: %@"), "\(cause.kind): \(cause.message)")))
        }
        if let width = report.width, let height = report.height { rows.append((tr("resolution"), "\(width)×\(height)")) }
        if let open = report.timeToOpen { rows.append((tr("stream open"), String(format: "%.3f s", open))) }
        if let ttff = report.timeToFirstFrame { rows.append((tr("first frame"), String(format: "%.3f s", ttff))) }
        var rate = "\(report.frames)"
        if let fps = report.framesPerSecond { rate = String(format: tr("%ld at %.1f fps"), report.frames, fps) }
        if let kbps = report.kilobitsPerSecond, kbps > 0 { rate += String(format: tr(", %.0f kbit/s"), kbps) }
        rows.append((tr("frames"), rate))
        if let decode = report.decodeMilliseconds, let convert = report.convertMilliseconds, report.frames > 0 {
            rows.append((tr("per frame"), String(format: tr("decode %.2f ms, convert %.2f ms"), decode, convert)))
        }
        if let error = report.error {
            rows.append((tr("error"), "\(error.kind): \(error.message)"))
        } else {
            // TRANSLATORS: the probe's result when the camera worked.
            rows.append((tr("result"), tr("ok")))
        }
        // Values start in one column: 13 in English, further right when a translated label is longer.
        let column = max(13, (rows.map(\.label.count).max() ?? 0) + 2)
        var lines = [String(format: tr("Probing %@"), report.url)]
        for transition in report.transitions {
            let detail = transition.detail.map { " — \($0)" } ?? ""
            lines.append(String(format: "  %7.3f s  %@%@", transition.seconds, transition.state, detail))
        }
        lines += rows.map { $0.label.padding(toLength: column, withPad: " ", startingAt: 0) + $0.value }
        return lines.map(TerminalText.safe).joined(separator: "\n")
    }

    static func json(_ report: StreamProbe.Report) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(report) else { return "{}" }
        return TerminalText.safeJSON(String(decoding: data, as: UTF8.self))
    }

    static func exitCode(forKind kind: String) -> Int32 {
        switch kind {
        case "authRejected": return 3
        case "refused": return 4
        case "timeout": return 5
        case "notFound": return 6
        case "unsupportedCodec": return 7
        case "endOfStream": return 8
        case "untrustedCertificate": return 10
        default: return 9
        }
    }
}
