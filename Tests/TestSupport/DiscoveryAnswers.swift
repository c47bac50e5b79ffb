import Foundation

/// The answers Elegoo and Flashforge printers send to a discovery ask, as the sources show them
/// (../shared/PROTOCOLS.md §11, §13): one builder each, so every test speaks the same dialect.
public enum DiscoveryAnswers {
    /// A Centauri Carbon's answer to `M99999` (SDCP V3: the fields in `Data`).
    public static func elegoo(name: String = "Workshop CC", mainboardID: String = "000000000001a7c3",
                              machine: String = "Centauri Carbon", mainboardIP: String = "192.0.2.31") -> [UInt8] {
        let answer: [String: Any] = [
            "Id": "5a8f6e0c2b7d4e1f9a3c6b8d0e2f4a6c",
            "Data": ["Name": name, "MachineName": machine, "BrandName": "ELEGOO", "MainboardIP": mainboardIP,
                     "MainboardID": mainboardID, "ProtocolVersion": "V3.0.0", "FirmwareVersion": "V1.1.29"],
        ]
        return Array(try! JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys]))
    }

    /// An Adventurer 5M's 276-byte answer: the name at 0, command port 8899 at 0x84, vendor 0x2B71,
    /// product 0x0024, product type at 0x8C, HTTP port 8898 at 0x8E, status 0 (ready), serial at 0x92.
    public static func flashforge(name: String = "Adventurer 5M Pro", serial: String = "SNMOMC9900728",
                                  productType: UInt16 = 0x5A02) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 276)
        bytes.replaceSubrange(0..<min(name.utf8.count, 0x84), with: Array(name.utf8).prefix(0x84))
        for (offset, value) in [(0x84, 8899), (0x86, 0x2B71), (0x88, 0x0024), (0x8C, Int(productType)), (0x8E, 8898), (0x90, 0)] {
            bytes[offset] = UInt8(value >> 8)
            bytes[offset + 1] = UInt8(value & 0xFF)
        }
        bytes.replaceSubrange(0x92..<(0x92 + min(serial.utf8.count, 130)), with: Array(serial.utf8).prefix(130))
        return bytes
    }

    /// An Adventurer 3's 140-byte answer: the name in 128 bytes, the ports and ids, no serial.
    public static func olderFlashforge(name: String = "Adventurer 3") -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 140)
        bytes.replaceSubrange(0..<min(name.utf8.count, 0x80), with: Array(name.utf8).prefix(0x80))
        bytes[0x84] = 0x22; bytes[0x85] = 0xC3  // 8899
        return bytes
    }

    /// A PrusaLink responder's answer to the PTR question for `_prusalink._tcp.local` (RFC 6762,
    /// RFC 6763): the PTR to the instance `name`, its SRV (port 80 on `host`.local), its TXT
    /// (`txt` as key=value strings) and an A record for `aAddress`; later names point back at earlier
    /// ones, as responders compress them.
    public static func prusaLink(name: String = "Prusa Core One", host: String = "prusa-coreone", txt: [String] = [],
                                 aAddress: [UInt8] = [192, 0, 2, 77]) -> [UInt8] {
        func labels(_ parts: [String]) -> [UInt8] { parts.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } }
        func uint16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        var bytes: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 3]  // a response: one answer, three additional
        let service = bytes.count
        bytes += labels(["_prusalink", "_tcp", "local"]) + [0] + uint16(12) + uint16(1) + [0, 0, 0x11, 0x94]
        let instanceName = labels([name]) + [0xC0, UInt8(service)]
        bytes += uint16(instanceName.count)
        let instance = bytes.count
        bytes += instanceName
        let pointer: [UInt8] = [0xC0, UInt8(instance)]
        let target = labels([host]) + [0xC0, UInt8(service + 16)]  // "local"
        bytes += pointer + uint16(33) + uint16(0x8001) + [0, 0, 0, 120] + uint16(6 + target.count) + [0, 0, 0, 0, 0, 80]
        let targetAt = bytes.count
        bytes += target
        let text = txt.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
        bytes += pointer + uint16(16) + uint16(0x8001) + [0, 0, 0x11, 0x94] + uint16(max(1, text.count)) + (text.isEmpty ? [0] : text)
        bytes += [0xC0, UInt8(targetAt)] + uint16(1) + uint16(0x8001) + [0, 0, 0, 120] + uint16(4) + aAddress
        return bytes
    }
}
