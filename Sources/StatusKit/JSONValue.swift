import Foundation
import StreamKit

/// Reads numbers and strings out of parsed JSON whatever form a printer sent them in (`12`, `12.5`,
/// `"12"`), and parses a body only after its size was checked: printers' firmware is not consistent
/// and a hostile peer may send anything.
enum JSONValue {
    static func double(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber:
            let double = number.doubleValue
            return double.isFinite ? double : nil
        case let text as String: return Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    static func int(_ value: Any?) -> Int? {
        guard let double = double(value), abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    static func string(_ value: Any?) -> String? {
        switch value {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    static func bool(_ value: Any?) -> Bool? {
        switch value {
        case let number as NSNumber: return number.boolValue
        case let text as String: return ["true", "1", "yes", "on"].contains(text.lowercased())
        default: return nil
        }
    }

    /// The JSON object in `data`, refused unparsed when larger than `HTTPFetch.maximumBytes`.
    static func object(_ data: Data) throws(StatusFailure) -> [String: Any] {
        guard data.count <= HTTPFetch.maximumBytes else {
            throw .protocolError(String(format: tr("a message of %d bytes, over the %d MB limit"), data.count, HTTPFetch.maximumBytes / 1_000_000))
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .protocolError(tr("an answer that is not JSON"))
        }
        guard let object = parsed as? [String: Any] else { throw .protocolError(tr("a JSON answer that is not an object")) }
        return object
    }
}
