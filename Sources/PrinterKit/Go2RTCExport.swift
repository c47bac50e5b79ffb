import Foundation
import StreamKit

/// "Export for go2rtc…": a go2rtc.yaml with one stream per saved printer, so a restreamer can serve
/// the printers' cameras to many viewers. X1-family printers become `rtspx://` sources (RTSPS
/// without certificate checks), P1/A1 printers an `exec:` source running `layerwatch relay
/// --printer`, other cameras their URL. Every key and value is a double-quoted YAML string.
public enum Go2RTCExport {
    /// The YAML for `printers`, in their order. A printer that cannot be a source (an RTSPS printer
    /// without a valid address or code, a video file) is left out with a comment naming its stream.
    public static func yaml(for printers: [Printer]) -> String {
        var lines = [
            "# go2rtc.yaml written by Layerwatch for its saved printers.",
            "# It holds the printers' access codes and passwords: keep it private.",
            "# The P1/A1 streams run `layerwatch relay`: layerwatch must be on go2rtc's PATH, and the",
            "# printers saved (with their access codes) for the user go2rtc runs as.",
            printers.isEmpty ? "streams: {}" : "streams:",
        ]
        var taken = Set<String>()
        for printer in printers {
            let name = streamName(printer.name, taken: &taken)
            switch source(of: printer) {
            case .success(let source): lines.append("  \(quoted(name)): \(quoted(source))")
            case .failure(let reason): lines.append("  # \(name): left out, \(reason.rawValue)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `yaml(for: printers)` to `url` atomically, owner-only (mode 0600: it holds codes).
    /// Throws an error whose description says what failed and why, for a toast.
    public static func write(_ printers: [Printer], to url: URL) throws {
        try SafeFile.write(Data(yaml(for: printers).utf8), to: url)
    }

    /// Why a printer has no stream in the file (written as a YAML comment, so in English).
    enum Omission: String, Error {
        case invalidBambuCamera = "its address or access code is missing or invalid"
        case noNetworkURL = "it has no network camera URL go2rtc can open"
    }

    /// The go2rtc source for `printer`'s camera.
    static func source(of printer: Printer) -> Result<String, Omission> {
        switch printer.kind {
        case .bambuRTSPS:
            guard case .rtsp(let url)? = try? BambuCamera.rtspsSource(host: printer.host, accessCode: printer.accessCode),
                  var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                return .failure(.invalidBambuCamera)
            }
            components.scheme = "rtspx"
            return components.string.map { .success($0) } ?? .failure(.invalidBambuCamera)
        case .bambuJPEG:
            return .success("exec:layerwatch relay --printer \(relayArgument(for: printer))")
        case .generic, .klipper, .octoprint:
            let url = (printer.url ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            switch try? StreamSource.parse(url) {
            case .rtsp?, .http?: return .success(url)
            // A P1/A1 camera typed as a bambu-jpeg:// URL: the relay reads it just the same.
            case .bambuJPEG?: return .success("exec:layerwatch relay --printer \(relayArgument(for: printer))")
            case .file?, nil: return .failure(.noNetworkURL)
            }
        }
    }

    /// `--printer`'s argument as go2rtc's exec splitter (`shell.QuoteSplit`) reads it: the name in
    /// single quotes, or double quotes when it has a single quote — the splitter knows no escapes.
    /// A name it would mangle (both quotes, empty, a `#` go2rtc cuts parameters at, `$`/`{` it
    /// substitutes, control characters) is replaced by the printer's id, which `--printer` also takes.
    static func relayArgument(for printer: Printer) -> String {
        let name = printer.name
        let unsafe = name.isEmpty || name.contains { "#${}".contains($0) }
            || name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        if !unsafe && !name.contains("'") { return "'\(name)'" }
        if !unsafe && !name.contains("\"") { return "\"\(name)\"" }
        return printer.id.uuidString
    }

    /// A stream name go2rtc and URLs take as is: lowercase ASCII letters, digits, `_` and `-`, other
    /// characters (after dropping accents) as one `_`; "printer" when nothing is left; `-2`, `-3`…
    /// added when `taken` already has it. The name returned is added to `taken`.
    static func streamName(_ printerName: String, taken: inout Set<String>) -> String {
        var base = ""
        for scalar in printerName.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).unicodeScalars {
            let character = Character(scalar)
            if scalar.isASCII && (character.isLetter || character.isNumber || scalar == "_" || scalar == "-") {
                base.append(character)
            } else if !base.isEmpty && !base.hasSuffix("_") {
                base.append("_")
            }
        }
        base = base.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "_-"))
        if base.isEmpty { base = "printer" }
        var name = base
        var attempt = 1
        while taken.contains(name) {
            attempt += 1
            name = "\(base)-\(attempt)"
        }
        taken.insert(name)
        return name
    }

    /// `text` as a YAML double-quoted scalar: `\` and `"` escaped, and every character YAML would
    /// fold, reject or misread (controls, line and paragraph separators, BOM, non-characters) as an escape.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}":
                result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
