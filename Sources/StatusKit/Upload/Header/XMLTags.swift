import Foundation

/// The tags of a small XML document a slicer wrote (a 3MF's `Metadata/slice_info.config`), with
/// their attributes: what the header needs of XML, without a parser library. Text, comments and
/// declarations are passed over; at most `most` tags are read.
struct XMLTag {
    let name: String
    let attributes: [String: String]
    /// `</name>`.
    let isClosing: Bool

    static let most = 100_000

    static func tags(in text: String) -> [XMLTag] {
        let scalars = Array(text.unicodeScalars)
        var tags: [XMLTag] = []
        var at = 0
        func skip(while condition: (Unicode.Scalar) -> Bool) { while at < scalars.count, condition(scalars[at]) { at += 1 } }
        func word() -> String {
            let start = at
            skip { !$0.properties.isWhitespace && !"=/>".unicodeScalars.contains($0) }
            return String(String.UnicodeScalarView(scalars[start..<at]))
        }
        while tags.count < most {
            skip { $0 != "<" }
            at += 1
            guard at < scalars.count else { break }
            if scalars[at] == "?" || scalars[at] == "!" {
                skip { $0 != ">" }
                continue
            }
            let isClosing = scalars[at] == "/"
            if isClosing { at += 1 }
            let name = word()
            var attributes: [String: String] = [:]
            while at < scalars.count {
                skip { $0.properties.isWhitespace || $0 == "/" }
                guard at < scalars.count, scalars[at] != ">" else { break }
                let key = word()
                skip { $0.properties.isWhitespace }
                guard at < scalars.count, scalars[at] == "=" else { continue }
                at += 1
                skip { $0.properties.isWhitespace }
                guard at < scalars.count, scalars[at] == "\"" || scalars[at] == "'" else { continue }
                let quote = scalars[at]
                at += 1
                let start = at
                skip { $0 != quote }
                attributes[key] = unescaped(String(String.UnicodeScalarView(scalars[start..<min(at, scalars.count)])))
                at += 1
            }
            tags.append(XMLTag(name: name, attributes: attributes, isClosing: isClosing))
        }
        return tags
    }

    private static func unescaped(_ value: String) -> String {
        guard value.contains("&") else { return value }
        return [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")]
            .reduce(value) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }
}
