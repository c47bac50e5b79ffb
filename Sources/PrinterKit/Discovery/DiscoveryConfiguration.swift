import Foundation

extension PrinterDiscovery {
    /// A UDP port to listen on, and the multicast group to join there if any.
    public struct Endpoint: Equatable, Sendable {
        public var port: UInt16
        public var multicastGroup: String?

        public init(port: UInt16, multicastGroup: String? = nil) {
            self.port = port
            self.multicastGroup = multicastGroup
        }

        /// Where the printers of every registered family that can be discovered announce
        /// themselves (`FamilyDiscovery.endpoints`), each once.
        public static var everyFamily: [Endpoint] { unique(PrinterFamilies.discoveries.flatMap(\.endpoints)) }

        /// The registered families whose printers announce themselves ("Bambu Lab"), for sentences.
        public static var everyFamilyTitles: [String] {
            PrinterFamilies.discoveries.filter { !$0.endpoints.isEmpty }.map(\.title)
        }

        private static func unique(_ endpoints: [Endpoint]) -> [Endpoint] {
            endpoints.reduce(into: []) { all, endpoint in
                if !all.contains(endpoint) { all.append(endpoint) }
            }
        }
    }

    /// Where to listen, what to ask and where, how long a silent printer stays listed and how long
    /// it keeps its address. Tests bind 127.0.0.1 port 0 with no multicast group and short times,
    /// and ask 127.0.0.1 only.
    public struct Configuration: Equatable, Sendable {
        /// The local IPv4 address to bind; broadcasts and multicasts only arrive on 0.0.0.0.
        public var bindAddress: String
        public var endpoints: [Endpoint]
        /// How long after its last announcement a printer is forgotten.
        public var expiry: TimeInterval
        /// How long a printer keeps the address it announces from: announcements of its serial
        /// from another host are ignored until the first host has been silent this long (a printer
        /// that really moved is followed then; printers announce every few seconds).
        public var addressHold: TimeInterval
        /// What is sent from the asking socket (bound to `bindAddress`, a port the kernel chooses).
        public var asks: [DiscoveryAsk]
        /// Where every ask goes instead of its family's broadcast or multicast address (one printer,
        /// one subnet's broadcast, or 127.0.0.1 in tests); nil: each to its own — but to
        /// `bindAddress` itself when that is a loopback address, which can reach nothing else.
        public var askAddress: String?
        /// How long after one round of asks the next is sent (answers are datagrams and may be lost;
        /// a printer switched on later answers the next round).
        public var askInterval: TimeInterval

        public init(bindAddress: String = "0.0.0.0", endpoints: [Endpoint] = Endpoint.everyFamily, expiry: TimeInterval = 300,
                    addressHold: TimeInterval = 30, asks: [DiscoveryAsk] = DiscoveryAsk.everyFamily, askAddress: String? = nil,
                    askInterval: TimeInterval = 5) {
            self.bindAddress = bindAddress
            self.endpoints = endpoints
            self.expiry = expiry
            self.addressHold = addressHold
            self.asks = asks
            self.askAddress = askAddress
            self.askInterval = askInterval
        }

        /// Where each ask goes: `askAddress` when set, the loopback address bound, else the ask's own.
        var destinations: [DiscoveryAsk] {
            let loopback = bindAddress.hasPrefix("127.") ? bindAddress : nil
            return asks.map { ask in DiscoveryAsk(payload: ask.payload, port: ask.port, address: askAddress ?? loopback ?? ask.address) }
        }
    }

    /// Why a port could not be listened on (in use by a program that doesn't share it, no
    /// permission, no multicast route, …) or an ask could not be sent (no network), for the UI to
    /// show instead of an empty list. An ask's failure has its destination's port.
    public struct BindFailure: Error, Equatable, Sendable, CustomStringConvertible {
        public var port: UInt16
        /// The `errno` value.
        public var code: Int32
        public var message: String
        /// Where an ask could not be sent; nil for a port that could not be listened on.
        public var askedAddress: String?

        public init(port: UInt16, code: Int32, message: String, askedAddress: String? = nil) {
            self.port = port
            self.code = code
            self.message = message
            self.askedAddress = askedAddress
        }

        /// The families whose printers announce themselves on the port, or are asked on it.
        public var familyTitles: [String] {
            PrinterFamilies.discoveries.filter { discovery in
                askedAddress == nil ? discovery.endpoints.contains { $0.port == port } : discovery.asks.contains { $0.port == port }
            }.map(\.title)
        }

        public var description: String { "UDP port \(port): \(message)" }
    }

    /// Whether the listener is running, on which ports, and what couldn't be bound.
    public enum State: Equatable, Sendable {
        case stopped
        /// Listening on `ports` (the bound numbers, so port 0 shows the one chosen; the asking
        /// socket's is not among them); `unavailable` lists the endpoints that failed and the asks
        /// that could not be sent while others work.
        case listening(ports: [UInt16], unavailable: [BindFailure])
        /// No endpoint could be listened on, nor any ask sent.
        case failed([BindFailure])
    }
}
