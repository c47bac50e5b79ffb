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

        /// Where the printers of every family that can be discovered announce themselves
        /// (`FamilyDiscovery.endpoints`), each once.
        public static var everyFamily: [Endpoint] {
            PrinterFamilies.discoveries.flatMap(\.endpoints).reduce(into: []) { all, endpoint in
                if !all.contains(endpoint) { all.append(endpoint) }
            }
        }
    }

    /// Where to listen, how long a silent printer stays listed and how long it keeps its address.
    /// Tests bind 127.0.0.1 port 0 with no multicast group and short times.
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

        public init(bindAddress: String = "0.0.0.0", endpoints: [Endpoint] = Endpoint.everyFamily, expiry: TimeInterval = 300,
                    addressHold: TimeInterval = 30) {
            self.bindAddress = bindAddress
            self.endpoints = endpoints
            self.expiry = expiry
            self.addressHold = addressHold
        }
    }

    /// Why a port could not be listened on (in use by a program that doesn't share it, no
    /// permission, no multicast route, …), for the UI to show instead of an empty list.
    public struct BindFailure: Error, Equatable, Sendable, CustomStringConvertible {
        public var port: UInt16
        /// The `errno` value.
        public var code: Int32
        public var message: String

        public init(port: UInt16, code: Int32, message: String) {
            self.port = port
            self.code = code
            self.message = message
        }

        public var description: String { "UDP port \(port): \(message)" }
    }

    /// Whether the listener is running, on which ports, and what couldn't be bound.
    public enum State: Equatable, Sendable {
        case stopped
        /// Listening on `ports` (the bound numbers, so port 0 shows the one chosen); `unavailable`
        /// lists the endpoints that failed while others work.
        case listening(ports: [UInt16], unavailable: [BindFailure])
        /// No endpoint could be listened on.
        case failed([BindFailure])
    }
}
