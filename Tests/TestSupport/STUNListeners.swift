import Foundation

/// UDP sockets bound on 127.0.0.1 that never answer, to count the ports a WebRTC peer sends ICE
/// connectivity checks (STUN binding requests) to: a hostile camera lists them as its candidates.
public final class STUNListeners {
    private let sockets: [(descriptor: Int32, port: UInt16)]

    /// `count` sockets on free loopback ports.
    public init(count: Int) throws {
        sockets = (0..<count).compactMap { _ in LoopbackSender.exclusiveSocket() }
        guard sockets.count == count else { throw STUNListenersError.noFreePort }
    }

    deinit {
        for socket in sockets { close(socket.descriptor) }
    }

    public var ports: [UInt16] { sockets.map(\.port) }

    /// The ports at which a STUN message (RFC 5389: its first two bits zero, the magic cookie
    /// 0x2112A442 at bytes 4–7) arrived so far; reading them empties the sockets.
    public func portsThatReceivedSTUN() -> Set<UInt16> {
        var reached = Set<UInt16>()
        var datagram = [UInt8](repeating: 0, count: 1500)
        for socket in sockets {
            while true {
                let length = recv(socket.descriptor, &datagram, datagram.count, Int32(MSG_DONTWAIT))
                guard length >= 0 else { break }
                if length >= 20, datagram[0] & 0xC0 == 0, Array(datagram[4..<8]) == [0x21, 0x12, 0xA4, 0x42] {
                    reached.insert(socket.port)
                }
            }
        }
        return reached
    }
}

/// The loopback interface had no free UDP port to give.
public enum STUNListenersError: Error {
    case noFreePort
}
