import Foundation

/// The Prusa family's discovery: DNS-SD over multicast DNS (RFC 6762, RFC 6763). PrusaLink
/// announces `_prusalink._tcp.local` (Prusa-Link's `_register_service("PrusaLink", "prusalink")`;
/// the Buddy firmware has an mDNS responder since 6.0, Prusa-Firmware-Buddy issue #3809, whose
/// service name is not confirmed on hardware here). Responders answer one question a packet, so
/// the ask is that one question. A `serial`, `model` or `version` TXT entry is read when there is
/// one; else the SRV record's host names the printer. The ask is that one PTR question
/// to 224.0.0.251:5353 from the asking socket's own port: a "legacy unicast" query, which a
/// responder answers to that socket (RFC 6762 §6.7). The answer is untrusted: only a response with
/// a PTR record for the service is read, names follow only backward compression pointers, are at
/// most 255 bytes and eight jumps, and the address is the sender's, never an A record's.
struct PrusaLinkDiscovery: FamilyDiscovery {
    static let id = "prusalink"
    static let service = ["_prusalink", "_tcp", "local"]
    /// More records than a printer's answer has (a PTR, SRV, TXT and A or two) are no answer.
    static let maximumRecords = 32

    var id: String { Self.id }
    let title = "Prusa"
    let asks = [DiscoveryAsk(payload: PrusaLinkDiscovery.question, port: 5353, address: "224.0.0.251")]

    /// The query: id 0, no flags, one question (`_prusalink._tcp.local` PTR, class IN).
    static let question: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
        + service.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0, 0, 12, 0, 1]

    func parse(_ datagram: [UInt8], sender: String) -> DiscoveredPrinter? {
        guard DiscoveredText.isIPv4Address(sender), datagram.count >= 12, datagram[2] & 0x80 != 0, datagram[2] & 0x78 == 0 else { return nil }
        let message = DNSMessage(datagram)
        let counts = (0..<4).map { message.uint16(at: 4 + 2 * $0) ?? 0 }
        guard counts.reduce(0, +) <= Self.maximumRecords else { return nil }
        var offset = 12
        for _ in 0..<counts[0] {  // questions: a name, its type and class
            guard let (_, next) = message.name(at: offset) else { return nil }
            offset = next + 4
        }
        var instance: [String]?, target: [String]?, texts: [String: String] = [:]
        for _ in 0..<(counts[1] + counts[2] + counts[3]) {
            guard let (owner, next) = message.name(at: offset), let type = message.uint16(at: next),
                  let length = message.uint16(at: next + 8), next + 10 + length <= datagram.count else { return nil }
            let data = next + 10
            switch type {
            case 12 where Self.lowercased(owner) == Self.service: instance = message.name(at: data)?.labels
            case 33 where length > 6: target = message.name(at: data + 6)?.labels
            case 16: texts.merge(Self.texts(Array(datagram[data..<(data + length)]))) { first, _ in first }
            default: break
            }
            offset = data + length
        }
        guard let instance, let name = instance.first else { return nil }
        let host = target?.first.flatMap(DiscoveredText.identifier)
        let identifier = DiscoveredText.identifier(texts["serial"]) ?? host ?? sender.replacingOccurrences(of: ".", with: "-")
        return DiscoveredPrinter(family: id, identifier: identifier, address: sender, name: DiscoveredText.cleaned(name),
                                 modelName: DiscoveredText.cleaned(texts["model"]), firmwareVersion: DiscoveredText.cleaned(texts["version"]))
    }

    private static func lowercased(_ labels: [String]) -> [String] { labels.map { $0.lowercased() } }

    /// A TXT record's `key=value` strings (each a length byte and its bytes), keys lowercased.
    private static func texts(_ data: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:], index = 0
        while index < data.count {
            let end = index + 1 + Int(data[index])
            guard end <= data.count else { break }
            let text = String(decoding: data[(index + 1)..<end], as: UTF8.self)
            if let equals = text.firstIndex(of: "=") { fields[text[..<equals].lowercased()] = String(text[text.index(after: equals)...]) }
            index = end
        }
        return fields
    }
}

/// The bytes of one DNS message, read without trusting them: numbers and names only within its
/// bounds.
private struct DNSMessage {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func uint16(at offset: Int) -> Int? {
        offset >= 0 && offset + 2 <= bytes.count ? Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) : nil
    }

    /// The name at `offset` as its labels, and where what follows it starts; nil for a name that
    /// runs out of the message, points forward or loops, is longer than 255 bytes, or is not UTF-8.
    func name(at offset: Int) -> (labels: [String], next: Int)? {
        var labels: [String] = [], index = offset, next: Int?, jumps = 0, length = 0
        while index < bytes.count {
            let size = Int(bytes[index])
            if size == 0 { return (labels, next ?? index + 1) }
            if size & 0xC0 == 0xC0 {
                guard let pointer = uint16(at: index).map({ $0 & 0x3FFF }), pointer < index, jumps < 8 else { return nil }
                if next == nil { next = index + 2 }
                (index, jumps) = (pointer, jumps + 1)
                continue
            }
            guard size <= 63, index + 1 + size <= bytes.count, length + size + 1 <= 255,
                  let label = String(bytes: bytes[(index + 1)...(index + size)], encoding: .utf8) else { return nil }
            labels.append(label)
            length += size + 1
            index += 1 + size
        }
        return nil
    }
}
