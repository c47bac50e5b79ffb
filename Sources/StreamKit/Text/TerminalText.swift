import Foundation

/// Makes text that came from a camera or server safe to print on a terminal: a control character
/// (ESC, BEL, a C1 code) in an error's reason phrase could retitle the window, recolour or rewrite
/// what the user reads, and a bidirectional override could reorder it.
public enum TerminalText {
    /// `text` with every control character, separator, mark and bidirectional override (`isUnsafe`)
    /// written out as `\xHH` or `\u{HHHH}`, so the user sees that it was there and the terminal does
    /// not act on it.
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
    /// separators, marks, bidirectional overrides) written as `\uHHHH` escapes; they can only occur
    /// inside strings, so the JSON means the same.
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

    /// C0 controls, DEL, C1 controls, the line and paragraph separators (U+2028, U+2029: a line
    /// break where the terminal shows none), the left-to-right and right-to-left marks (U+200E,
    /// U+200F: they reorder the neutral characters beside them) and the bidirectional embeddings,
    /// overrides and isolates (`BidiControls`).
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028, 0x2029: return true
        default: return BidiControls.contains(scalar)
        }
    }
}
