import Foundation
import StreamKit

/// Reads the optional fields of one object in `printers.json` so that a bad value costs only that
/// field: a value of the wrong type, or one `convert` refuses (out of range, unknown), is left out —
/// the caller's default used — with one log line naming where it was and whose it is, never the
/// value (it may be a code). An absent field or `null` is simply not there.
struct LenientFields<Key: CodingKey> {
    private let container: KeyedDecodingContainer<Key>
    /// Whose fields these are, for the log line (`printer “Voron” 6F96…`); nil when the path says enough.
    private let owner: String?

    init(_ container: KeyedDecodingContainer<Key>, owner: String? = nil) {
        self.container = container
        self.owner = owner
    }

    init(_ decoder: Decoder, keyedBy: Key.Type) throws {
        self.init(try decoder.container(keyedBy: Key.self))
    }

    /// The field at `key` read as `Raw` and given to `convert`; nil when it is absent, null or left out.
    func value<Raw: Decodable, Value>(_ key: Key, as raw: Raw.Type, _ convert: (Raw) -> Value?) -> Value? {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else { return nil }
        let problem: String
        do {
            if let value = convert(try container.decode(Raw.self, forKey: key)) { return value }
            problem = "is not valid"
        } catch DecodingError.typeMismatch(_, _) {
            problem = "has the wrong type"
        } catch {
            problem = "is not valid"
        }
        let whose = owner.map { " (\($0))" } ?? ""
        StreamLog.log(.info, "\(ConfigStore.fileName): \((container.codingPath + [key]).configPath)\(whose) \(problem); left out, its default used")
        return nil
    }

    /// The field at `key` as a `Value`; nil when it is absent, null or of the wrong type.
    func value<Value: Decodable>(_ key: Key, as type: Value.Type = Value.self) -> Value? {
        value(key, as: Value.self) { $0 }
    }
}

/// One element of a list in `printers.json` (a printer, a mini window) that may be unreadable: the
/// element is left out alone, with a log line saying where and why, and the list read on.
struct Droppable<Element: Decodable>: Decodable {
    let element: Element?
    /// Why it was left out.
    let error: DecodingError?

    init(from decoder: Decoder) throws {
        do {
            element = try Element(from: decoder)
            error = nil
        } catch let failure as DecodingError {
            element = nil
            error = failure
            StreamLog.log(.info, "\(ConfigStore.fileName): \(decoder.codingPath.configPath) left out: \(failure.configDescription)")
        }
    }
}

extension DecodingError {
    /// Where in the file the problem is and what it is, in English for the log (never the value).
    var configDescription: String {
        switch self {
        case .keyNotFound(let key, let context): return "\((context.codingPath + [key]).configPath) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(context.codingPath.configPath) has the wrong type"
        case .dataCorrupted(let context): return "\(context.codingPath.configPath) is not valid"
        @unknown default: return "it is not a printer list"
        }
    }
}

extension Array where Element == CodingKey {
    /// The keys as a path into the file: `printers[2].rotation`.
    var configPath: String {
        reduce(into: "") { path, key in
            if let index = key.intValue { path += "[\(index)]" } else { path += path.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
    }
}
