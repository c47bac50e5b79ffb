/// The bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): in text a
/// printer or camera sent, one of them reorders what follows it in our own sentence (a job named
/// with U+202E reverses the words after it), so they are taken out of such text before it is shown
/// anywhere, and written out on a terminal (`TerminalText`).
public enum BidiControls {
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` without its embeddings, overrides and isolates; the rest as it was.
    public static func removed(from text: String) -> String {
        guard text.unicodeScalars.contains(where: contains) else { return text }
        var result = ""
        result.unicodeScalars.append(contentsOf: text.unicodeScalars.filter { !contains($0) })
        return result
    }
}
