import Foundation

/// What the commands print for people and programs alike, declared once: a table (a header line,
/// each column as wide as its widest cell and two spaces from the next) and a JSON array (sorted
/// keys, slashes as they are) — `discover`'s printers, `history`'s prints.
enum TextTable {
    /// `header` then `rows`, aligned in columns; the last column is not padded.
    static func text(header: [String], rows: [[String]]) -> String {
        let lines = [header] + rows
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { column, cell in
                column == line.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }.joined(separator: "\n")
    }

    /// `objects` as a JSON array.
    static func json(_ objects: [[String: Any]]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
