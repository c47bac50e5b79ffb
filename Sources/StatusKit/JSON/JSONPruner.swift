import Foundation

/// Cuts a printer's JSON down before Foundation parses it, so a long list costs no more than its
/// limit: `JSONSerialization` would build every entry of a 200 000-entry HMS list (660 MB for an
/// 8 MB message) and recurse as deep as the brackets go. One pass over the bytes copies each array's
/// first `elements` entries and each object's first `members` members, skips the rest (their
/// brackets and strings still read, so the text stays well formed), keeps at most `values` values
/// in all, and refuses nesting deeper than `depth`. What it keeps is parsed and checked as before.
struct JSONPruner {
    /// The most entries of one array kept for parsing: above every per-field limit (`ListLimit`).
    static let elements = 256
    /// The most members of one object kept: OctoPrint's settings have a few dozen per object.
    static let members = 512
    /// The most values kept in one message, however they nest.
    static let values = 50_000
    /// Deeper nesting than any printer's answer has (they stay under 10) is refused.
    static let depth = 64

    /// Why a text could not be pruned: it is not JSON, or nests too deep.
    enum Failure: Error {
        case notJSON
        case tooDeep
    }

    /// `text` with what is past the limits left out, and how many values were left out.
    static func pruned(_ text: Data) throws(Failure) -> (data: Data, dropped: Int) {
        var pruner = JSONPruner(input: [UInt8](text))
        try pruner.value(keep: true, depth: 0)
        pruner.skipSpace()
        guard pruner.index == pruner.input.count else { throw .notJSON }
        return (Data(pruner.output), pruner.dropped)
    }

    private let input: [UInt8]
    private var index = 0
    private var output: [UInt8] = []
    private var kept = 0
    private var dropped = 0

    private init(input: [UInt8]) {
        self.input = input
        output.reserveCapacity(min(input.count, 1 << 20))
    }

    private mutating func value(keep: Bool, depth: Int) throws(Failure) {
        guard depth < Self.depth else { throw .tooDeep }
        skipSpace()
        guard index < input.count else { throw .notJSON }
        if keep { kept += 1 }
        switch input[index] {
        case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), limit: Self.elements, keep: keep, depth: depth)
        case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), limit: Self.members, keep: keep, depth: depth)
        case UInt8(ascii: "\""): try string(keep: keep)
        default: try scalar(keep: keep)
        }
    }

    /// An array (entries) or an object (members `"key": value`).
    private mutating func container(close: UInt8, limit: Int, keep: Bool, depth: Int) throws(Failure) {
        let isObject = close == UInt8(ascii: "}")
        copy(input[index], keep)
        index += 1
        var count = 0
        skipSpace()
        if index < input.count, input[index] == close {
            copy(close, keep)
            index += 1
            return
        }
        while true {
            let keepEntry = keep && count < limit && kept < Self.values
            if keep && !keepEntry { dropped += 1 }
            if keepEntry && count > 0 { output.append(UInt8(ascii: ",")) }
            if isObject {
                skipSpace()
                guard index < input.count, input[index] == UInt8(ascii: "\"") else { throw .notJSON }
                try string(keep: keepEntry)
                skipSpace()
                guard index < input.count, input[index] == UInt8(ascii: ":") else { throw .notJSON }
                copy(input[index], keepEntry)
                index += 1
            }
            try value(keep: keepEntry, depth: depth + 1)
            count += 1
            skipSpace()
            guard index < input.count else { throw .notJSON }
            if input[index] == close {
                copy(close, keep)
                index += 1
                return
            }
            guard input[index] == UInt8(ascii: ",") else { throw .notJSON }
            index += 1
        }
    }

    private mutating func string(keep: Bool) throws(Failure) {
        let start = index
        index += 1
        while index < input.count {
            switch input[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                if keep { output.append(contentsOf: input[start..<index]) }
                return
            default: index += 1
            }
        }
        throw .notJSON
    }

    /// A number, `true`, `false` or `null`: its characters up to the next delimiter, for
    /// `JSONSerialization` to judge.
    private mutating func scalar(keep: Bool) throws(Failure) {
        let start = index
        while index < input.count, !Self.delimiters.contains(input[index]) { index += 1 }
        guard index > start else { throw .notJSON }
        if keep { output.append(contentsOf: input[start..<index]) }
    }

    private static let delimiters: Set<UInt8> = Set(",]}: \t\r\n\"[{".utf8)

    private mutating func skipSpace() {
        while index < input.count {
            switch input[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func copy(_ byte: UInt8, _ keep: Bool) {
        if keep { output.append(byte) }
    }
}
