import Foundation

/// Makes text that came from a camera or server safe to print on a terminal: a control character
/// (ESC, BEL, a C1 code) in an error's reason phrase could retitle the window, recolour or rewrite
/// what the user reads, and a bidirectional override could reorder it.
public enum TerminalText {
    /// `text` with every control character and bidirectional override written out as `\xHH` or
    /// `\u{HHHH}`, so the user sees that it was there and the terminal does not act on it.
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if !isUnsafe(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar.value < 0x100 {
                result += String(format: "\\x%02X", scalar.value)
            } else {
                result += String(format: "\\u{%04X}", scalar.value)
            }
        }
        return result
    }

    /// JSON text with the characters `JSONEncoder` leaves raw but a terminal acts on (DEL, C1 codes,
    /// bidirectional overrides) written as `\uHHHH` escapes; they can only occur inside strings, so
    /// the JSON means the same.
    public static func safeJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isUnsafe) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if isUnsafe(scalar) && scalar.value >= 0x20 {
                result += String(format: "\\u%04X", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 controls, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
