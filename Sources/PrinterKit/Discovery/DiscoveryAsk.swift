import Foundation

/// One question a family's printers answer (`FamilyDiscovery.asks`): `payload` sent to UDP `port`
/// at `address` — the family's broadcast or multicast address, unless the caller sends every ask
/// to one address (`PrinterDiscovery.Configuration.askAddress`). Answers come back to the socket
/// that asked.
public struct DiscoveryAsk: Equatable, Sendable {
    public var payload: [UInt8]
    public var port: UInt16
    public var address: String

    public init(payload: [UInt8], port: UInt16, address: String) {
        self.payload = payload
        self.port = port
        self.address = address
    }

    /// The asks of every family that can be discovered (`PrinterFamilies.discoveries`), each once.
    public static var everyFamily: [DiscoveryAsk] { unique(PrinterFamilies.discoveries.flatMap(\.asks)) }

    /// The registered families whose printers are asked ("Elegoo"), for sentences.
    public static var everyFamilyTitles: [String] {
        PrinterFamilies.discoveries.filter { !$0.asks.isEmpty }.map(\.title)
    }

    private static func unique(_ asks: [DiscoveryAsk]) -> [DiscoveryAsk] {
        asks.reduce(into: []) { all, ask in
            if !all.contains(ask) { all.append(ask) }
        }
    }
}
