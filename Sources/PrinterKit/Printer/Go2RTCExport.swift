import Foundation
import StreamKit

/// "Export for go2rtc…": a go2rtc.yaml with one stream per saved printer's camera, so a restreamer
/// can serve the printers' cameras to many viewers. X1-family printers become `rtspx://` sources (RTSPS
/// without certificate checks), P1/A1 printers an `exec:` source running `layerwatch relay
/// --printer`, a Creality printer's own camera the URL its family streams at (MJPEG, or
/// `webrtc:…#format=creality`), other cameras their URL. Every key and value is a double-quoted
/// YAML string on one line, and no `$` is ever written as is: go2rtc replaces `${NAME}` and
/// `${NAME:default}` in the file's raw text with its variables before it parses the YAML
/// (go2rtc's `internal/app/config.go` and `pkg/creds/creds.go` `ReplaceVars`, which knows no
/// escape and runs across lines and comments), so a `$` in a printer's name, URL or password is written as the YAML escape `\u0024`,
/// which the YAML parser turns back into `$` after the substitution has found nothing.
public enum Go2RTCExport {
    /// The YAML for `printers`, in their order. A printer that cannot be a source (an RTSPS printer
    /// without a valid address or code, a video file) is left out with a comment naming its stream;
    /// a P1/A1 relayed by its id has a comment naming the printer and saying why.
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
            for (index, camera) in printer.cameras.enumerated() {
                let name = streamName(printer.name(with: camera), taken: &taken)
                switch source(of: printer, camera: index, among: printers) {
                case .success(let source):
                    if let reason = source.relayedByID {
                        // The name quoted as a value is one line without a `$`, whatever the printer is called.
                        lines.append("  # \(name): \(quoted(printer.name)) is relayed by its id, as \(reason.rawValue)")
                    }
                    lines.append("  \(quoted(name)): \(quoted(source.url))")
                case .failure(let reason): lines.append("  # \(name): left out, \(reason.rawValue)")
                }
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
        case invalidAddress = "its address is missing or invalid"
        case noNetworkURL = "it has no network camera URL go2rtc can open"
    }

    /// Why a relay names its printer by id, not by name (written as a YAML comment, so in English).
    enum RelayByID: String {
        case unquotable = "go2rtc's exec source would not pass its name on intact"
        case optionLike = "its name starts with '-', which the relay would read as an option"
        case idLike = "its name has the form of a printer id"
        case sharedName = "another saved printer has the same name"
    }

    /// A stream's source: go2rtc's URL for it and, for a relay, why it names the printer by id.
    struct Source: Equatable {
        let url: String
        var relayedByID: RelayByID?
    }

    /// The go2rtc source for `printer`'s camera at `index`; `printers` are all those saved (a relay
    /// names a printer by id when another one has its name).
    static func source(of printer: Printer, camera index: Int, among printers: [Printer]) -> Result<Source, Omission> {
        if let url = printer.cameras[index].url?.trimmingCharacters(in: .whitespacesAndNewlines) {
            switch try? StreamSource.parse(url) {
            // go2rtc reads `webrtc:` URLs in the same convention.
            case .rtsp?, .http?, .webrtc?: return .success(Source(url: url))
            // A P1/A1 camera typed as a bambu-jpeg:// URL: the relay reads it just the same.
            case .bambuJPEG?: return .success(relay(printer, camera: index, among: printers))
            case .file?, nil: return .failure(.noNetworkURL)
            }
        }
        return printer.kind.family.go2rtcSource(of: printer, camera: index, among: printers)
    }

    /// `layerwatch relay --printer` for `printer` (with `--camera N` past its first camera), its
    /// argument as go2rtc's exec source hands it on:
    /// cut at the first `#` (its parameters), `{output}` replaced, then split by `shell.QuoteSplit`
    /// (whitespace separates, '…' or "…" group, no escapes, an empty quote is an error). The name goes
    /// in single quotes, or double quotes when it has a single quote; the printer's id instead (which
    /// `--printer` looks up first) when the name would not arrive intact, would read as an option,
    /// could be taken for an id, or is another saved printer's name too.
    static func relay(_ printer: Printer, camera index: Int, among printers: [Printer]) -> Source {
        let command = "exec:layerwatch relay " + (index > 0 ? "--camera \(index + 1) " : "") + "--printer "
        let name = printer.name
        let unquotable = name.isEmpty || name.contains("#") || name.contains("{output}")
            || (name.contains("'") && name.contains("\""))
            || name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        let reason: RelayByID? = unquotable ? .unquotable
            : name.hasPrefix("-") ? .optionLike
            : UUID(uuidString: name) != nil ? .idLike
            : printers.contains { $0.id != printer.id && $0.name == name } ? .sharedName
            : nil
        if let reason { return Source(url: command + printer.id.uuidString, relayedByID: reason) }
        let quote = name.contains("'") ? "\"" : "'"
        return Source(url: command + quote + name + quote)
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

    /// `text` as a YAML double-quoted scalar on one line: `\` and `"` escaped, `$` as `\u0024` (so
    /// go2rtc's variable substitution never finds one, see the type's comment), and every character
    /// YAML would fold, reject or misread (controls, line and paragraph separators, BOM,
    /// non-characters) as an escape. Safe in a comment too: nothing in it can end the line.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "$", "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}":
                result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
