import Foundation

/// The Elegoo family's discovery (../shared/PROTOCOLS.md §11): SDCP printers (the Centauri Carbon)
/// answer the text `M99999` sent to UDP port 3000 with one JSON object,
/// `{"Id":…,"Data":{"Name","MachineName","BrandName","MainboardIP","MainboardID","ProtocolVersion","FirmwareVersion"}}`
/// (SDCP V1 printers nest the same fields in `Data.Attributes`). Only such an object with a
/// plausible `MainboardID` is accepted; the address is the sender's, never `MainboardIP`.
struct ElegooDiscovery: FamilyDiscovery {
    static let id = "elegoo"
    /// Objects and arrays nested deeper than this are not an answer (a real one is two deep).
    static let maximumDepth = 4

    var id: String { Self.id }
    let title = "Elegoo"
    /// Broadcast on the LAN; one address with `--to`.
    let asks = [DiscoveryAsk(payload: Array("M99999".utf8), port: 3000, address: "255.255.255.255")]

    func parse(_ datagram: [UInt8], sender: String) -> DiscoveredPrinter? {
        guard datagram.first == UInt8(ascii: "{"), Self.depth(of: datagram) <= Self.maximumDepth,
              DiscoveredText.isIPv4Address(sender),
              let answer = try? JSONSerialization.jsonObject(with: Data(datagram)) as? [String: Any],
              let data = answer["Data"] as? [String: Any] else { return nil }
        let fields = data["Attributes"] as? [String: Any] ?? data
        func text(_ key: String) -> String? { DiscoveredText.cleaned(fields[key] as? String ?? data[key] as? String) }
        guard let identifier = DiscoveredText.identifier(fields["MainboardID"] as? String ?? data["MainboardID"] as? String),
              text("Name") != nil || text("MachineName") != nil else { return nil }
        let machine = text("MachineName")
        return DiscoveredPrinter(family: id, identifier: identifier, address: sender, name: text("Name"), modelCode: machine,
                                 modelName: machine, firmwareVersion: text("FirmwareVersion"))
    }

    /// How deeply objects and arrays nest in `json`, brackets inside strings not counted.
    static func depth(of json: [UInt8]) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in json {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
