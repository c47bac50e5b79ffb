import Foundation
import StreamKit

/// Reads strings and flags out of parsed JSON whatever form a printer sent them in, and parses a
/// body only after its size was checked and its lists cut to their limits (`JSONPruner`): printers'
/// firmware is not consistent and a hostile peer may send anything. Numbers are read through
/// `PrinterNumber`, which knows each field's range. Every string read here — job names, tray names,
/// reasons, camera names — loses its bidirectional embeddings, overrides and isolates
/// (`BidiControls`): shown in our own sentences, labels and notifications, one would reorder the
/// text around it.
enum JSONValue {
    static func string(_ value: Any?) -> String? {
        switch value {
        case let text as String: return BidiControls.removed(from: text)
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
        let pruned: (data: Data, dropped: Int)
        do {
            pruned = try JSONPruner.pruned(data)
        } catch .tooDeep {
            throw .protocolError(String(format: tr("a JSON answer nested more than %d levels deep"), JSONPruner.depth))
        } catch {
            throw .protocolError(tr("an answer that is not JSON"))
        }
        if pruned.dropped > 0 {
            ListLimit.logOnce("json", "left out \(pruned.dropped) JSON values past the limits (\(JSONPruner.elements) entries a list, \(JSONPruner.members) members an object, \(JSONPruner.values) values a message)")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: pruned.data, options: [.fragmentsAllowed])
        } catch {
            throw .protocolError(tr("an answer that is not JSON"))
        }
        guard let object = parsed as? [String: Any] else { throw .protocolError(tr("a JSON answer that is not an object")) }
        return object
    }
}
