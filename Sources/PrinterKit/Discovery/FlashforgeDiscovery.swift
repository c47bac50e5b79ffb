import Foundation

/// The Flashforge family's discovery (../shared/PROTOCOLS.md §13; layout from GhostTypes/ff-5mp-api):
/// printers answer any datagram sent to 225.0.0.9:19000 (ff-5mp-api sends an empty one, as here).
/// The Adventurer 5M, 5M Pro and AD5X answer 276 bytes: the name (UTF-8, NUL-padded) at 0 in 132
/// bytes, then big-endian 16-bit fields — the TCP command port at 0x84, vendor id 0x86, product id
/// 0x88, product type 0x8C, the HTTP (event) port 0x8E, status 0x90 — and the serial number at 0x92
/// in 130 bytes. The Adventurer 3 and 4 answer 140 bytes: the name in 128, the same ports and ids,
/// the status at 0x8A, no serial (the sender's address stands for it). Only datagrams of exactly
/// these sizes with a name are accepted.
struct FlashforgeDiscovery: FamilyDiscovery {
    static let id = "flashforge"
    static let answerSize = 276, olderAnswerSize = 140
    /// The product type the Adventurer 5M series answers with.
    static let adventurer5MType: UInt16 = 0x5A02

    var id: String { Self.id }
    let title = "Flashforge"
    let asks = [DiscoveryAsk(payload: [], port: 19000, address: "225.0.0.9")]

    func parse(_ datagram: [UInt8], sender: String) -> DiscoveredPrinter? {
        guard DiscoveredText.isIPv4Address(sender) else { return nil }
        switch datagram.count {
        case Self.answerSize:
            guard let name = Self.text(datagram[0..<0x84]),
                  let serial = DiscoveredText.identifier(Self.text(datagram[0x92..<(0x92 + 130)])) else { return nil }
            let productType = Self.number(datagram, at: 0x8C)
            return DiscoveredPrinter(family: id, identifier: serial, address: sender, name: name,
                                     modelCode: String(format: "%04X", productType), modelName: Self.modelName(name: name, productType: productType))
        case Self.olderAnswerSize:
            guard let name = Self.text(datagram[0..<0x80]) else { return nil }
            let upper = name.uppercased()
            let model = ["4", "3"].first { upper.contains("ADVENTURER \($0)") || upper.contains("ADVENTURER\($0)") }.map { "Adventurer \($0)" }
            return DiscoveredPrinter(family: id, identifier: sender, address: sender, name: name, modelName: model)
        default:
            return nil
        }
    }

    /// The model the name and product type tell (as ff-5mp-api reads them): the AD5X by its
    /// name, the 5M or 5M Pro by the product type; nil for another.
    static func modelName(name: String, productType: UInt16) -> String? {
        let upper = name.uppercased()
        if upper == "AD5X" { return "AD5X" }
        guard productType == adventurer5MType || upper.contains("ADVENTURER 5M") || upper.contains("AD5M") else { return nil }
        return upper.contains("PRO") ? "Adventurer 5M Pro" : "Adventurer 5M"
    }

    /// The UTF-8 text up to the first NUL of a fixed-size field; nil when not text or empty.
    private static func text(_ field: ArraySlice<UInt8>) -> String? {
        let bytes = field.prefix { $0 != 0 }
        return String(validating: bytes, as: UTF8.self).flatMap(DiscoveredText.cleaned)
    }

    private static func number(_ datagram: [UInt8], at offset: Int) -> UInt16 {
        UInt16(datagram[offset]) << 8 | UInt16(datagram[offset + 1])
    }
}
