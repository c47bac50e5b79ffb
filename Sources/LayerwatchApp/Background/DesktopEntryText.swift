/// Values written into a desktop entry as the Desktop Entry Specification reads them back: an
/// `Exec` command line quoted as its "The Exec key" section says, and any string value escaped as
/// "Possible value types" says, so a program path with spaces, quotes, `%`, `$` or backslashes
/// reaches the desktop's launcher (GLib's `GDesktopAppInfo`, and every other) as it is.
enum DesktopEntryText {
    /// Characters that make an argument need double quotes.
    private static let reserved: Set<Character> = [" ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`"]
    /// Characters that need a backslash inside double quotes.
    private static let escapedInQuotes: Set<Character> = ["\"", "`", "$", "\\"]

    /// `arguments` as an `Exec` value: each one's `%` doubled (a field code otherwise), one with a
    /// reserved character in double quotes with `"`, `` ` ``, `$` and `\` escaped, then the whole
    /// escaped as a string value.
    static func exec(_ arguments: [String]) -> String {
        string(arguments.map { argument in
            let literal = argument.replacingOccurrences(of: "%", with: "%%")
            guard argument.isEmpty || argument.contains(where: reserved.contains) else { return literal }
            return "\"" + literal.map { escapedInQuotes.contains($0) ? "\\\($0)" : "\($0)" }.joined() + "\""
        }.joined(separator: " "))
    }

    /// `value` as a string value: backslash, newline, tab and carriage return escaped, a leading space as `\s`.
    static func string(_ value: String) -> String {
        let escaped = value.map { character -> String in
            switch character {
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\t": "\\t"
            case "\r": "\\r"
            default: String(character)
            }
        }.joined()
        return escaped.hasPrefix(" ") ? "\\s" + escaped.dropFirst() : escaped
    }
}
