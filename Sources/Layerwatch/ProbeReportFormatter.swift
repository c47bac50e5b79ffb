import Foundation
import StreamKit

/// Renders a probe report for a terminal or as JSON, and maps its error kind to an exit code.
enum ProbeReportFormatter {
    static func text(_ report: StreamProbe.Report) -> String {
        var lines = ["Probing \(report.url)"]
        for transition in report.transitions {
            let detail = transition.detail.map { " — \($0)" } ?? ""
            lines.append(String(format: "  %7.3f s  %@%@", transition.seconds, transition.state, detail))
        }
        if let codec = report.codec { lines.append("codec        \(codec)") }
        if let width = report.width, let height = report.height { lines.append("resolution   \(width)×\(height)") }
        if let open = report.timeToOpen { lines.append(String(format: "stream open  %.3f s", open)) }
        if let ttff = report.timeToFirstFrame { lines.append(String(format: "first frame  %.3f s", ttff)) }
        var rate = "frames       \(report.frames)"
        if let fps = report.framesPerSecond { rate += String(format: " at %.1f fps", fps) }
        if let kbps = report.kilobitsPerSecond, kbps > 0 { rate += String(format: ", %.0f kbit/s", kbps) }
        lines.append(rate)
        if let decode = report.decodeMilliseconds, let convert = report.convertMilliseconds, report.frames > 0 {
            lines.append(String(format: "per frame    decode %.2f ms, convert %.2f ms", decode, convert))
        }
        if let error = report.error {
            lines.append("error        \(error.kind): \(error.message)")
        } else {
            lines.append("result       ok")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ report: StreamProbe.Report) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(report) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func exitCode(forKind kind: String) -> Int32 {
        switch kind {
        case "authRejected": return 3
        case "refused": return 4
        case "timeout": return 5
        case "notFound": return 6
        case "unsupportedCodec": return 7
        case "endOfStream": return 8
        default: return 9
        }
    }
}
