import Foundation
import XCTest

/// A plain UDP socket that sends only to 127.0.0.1: the destination address is fixed here, so no
/// test can put a packet on a LAN, broadcast or multicast address.
public final class LoopbackSender {
    public init() {}

    private let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)

    deinit { close(descriptor) }

    public func send(_ datagram: [UInt8], to port: UInt16) {
        var destination = LoopbackSender.loopback(port: port)
        let sent = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        XCTAssertEqual(sent, datagram.count, "sendto 127.0.0.1:\(port)")
    }

    /// A socket bound to a free loopback port without address or port reuse, as a program that
    /// doesn't share its port would hold it.
    public static func exclusiveSocket(port: UInt16 = 0) -> (descriptor: Int32, port: UInt16)? {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = loopback(port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else {
            close(descriptor)
            return nil
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    public static func canBindExclusively(_ port: UInt16) -> Bool {
        guard let socket = exclusiveSocket(port: port) else { return false }
        close(socket.descriptor)
        return true
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
