import Foundation

/// One non-blocking IPv4 UDP socket: a listening one, bound with address and port reuse so it
/// shares a discovery port with Bambu Studio or another Layerwatch and optionally joined to a
/// multicast group, which never sends; or the asking one (`openForAsking`), on a port the kernel
/// chooses, which sends the families' asks and receives their answers. The descriptor is closed
/// when it is released.
final class DiscoverySocket {
    let descriptor: Int32
    /// The bound port (the one the kernel chose when 0 was asked for).
    private(set) var port: UInt16

    private init(descriptor: Int32, port: UInt16) {
        self.descriptor = descriptor
        self.port = port
    }

    deinit {
        close(descriptor)
    }

    /// Binds `address:port`, joining `multicastGroup` on the bound address's interface (any, for
    /// 0.0.0.0). Joining makes the kernel send an IGMP report; this socket never sends anything.
    static func open(address: String, port: UInt16, multicastGroup: String?) -> Result<DiscoverySocket, PrinterDiscovery.BindFailure> {
        func failure(_ what: String, _ code: Int32) -> Result<DiscoverySocket, PrinterDiscovery.BindFailure> {
            .failure(PrinterDiscovery.BindFailure(port: port, code: code, message: "\(what): \(String(cString: strerror(code)))"))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &local.sin_addr) == 1 else { return failure("bind address \(address)", EINVAL) }
        var group = in_addr()
        if let multicastGroup, inet_pton(AF_INET, multicastGroup, &group) != 1 {
            return failure("multicast group \(multicastGroup)", EINVAL)
        }

        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                                Int32(IPPROTO_UDP))
        guard descriptor >= 0 else { return failure("socket", errno) }
        let socket = DiscoverySocket(descriptor: descriptor, port: port)
        var one: Int32 = 1
        for option in [SO_REUSEADDR, SO_REUSEPORT] {
            guard setsockopt(descriptor, SOL_SOCKET, option, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                return failure("address reuse", errno)
            }
        }
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return failure("bind \(address):\(port)", errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return failure("getsockname", errno) }
        socket.port = UInt16(bigEndian: local.sin_port)
        if let multicastGroup {
            var membership = ip_mreq(imr_multiaddr: group, imr_interface: local.sin_addr)
            guard setsockopt(descriptor, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &membership,
                             socklen_t(MemoryLayout<ip_mreq>.size)) == 0 else {
                return failure("join \(multicastGroup)", errno)
            }
        }
        return .success(socket)
    }

    /// Binds `address` on a port the kernel chooses, allowed to send to a broadcast address; its
    /// multicasts stay on the local network (one hop).
    static func openForAsking(address: String) -> Result<DiscoverySocket, PrinterDiscovery.BindFailure> {
        open(address: address, port: 0, multicastGroup: nil).flatMap { socket in
            var one: Int32 = 1
            guard setsockopt(socket.descriptor, SOL_SOCKET, SO_BROADCAST, &one, socklen_t(MemoryLayout<Int32>.size)) == 0,
                  setsockopt(socket.descriptor, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
            else {
                let code = errno
                return .failure(PrinterDiscovery.BindFailure(port: 0, code: code, message: "broadcast: \(String(cString: strerror(code)))"))
            }
            return .success(socket)
        }
    }

    /// Sends `ask` to its address and port; the failure when the system refuses (no route, no network).
    func send(_ ask: DiscoveryAsk) -> PrinterDiscovery.BindFailure? {
        func failure(_ code: Int32) -> PrinterDiscovery.BindFailure {
            PrinterDiscovery.BindFailure(port: ask.port, code: code, message: "ask \(ask.address):\(ask.port): \(String(cString: strerror(code)))",
                                         askedAddress: ask.address)
        }
        var destination = sockaddr_in()
        destination.sin_family = sa_family_t(AF_INET)
        destination.sin_port = ask.port.bigEndian
        guard inet_pton(AF_INET, ask.address, &destination.sin_addr) == 1 else { return failure(EINVAL) }
        while true {
            let sent = ask.payload.withUnsafeBytes { bytes in
                withUnsafePointer(to: &destination) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            if sent >= 0 { return nil }
            if errno != EINTR { return failure(errno) }
        }
    }

    /// The next queued datagram and its sender's address, or nil once the queue is empty. A
    /// datagram longer than `buffer` is cut to its size (the parser rejects a full buffer's worth).
    func receive(into buffer: inout [UInt8]) -> (count: Int, sender: String)? {
        var sender = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length)
                    }
                }
            }
            if count >= 0 { return (count, Self.text(of: sender.sin_addr)) }
            if errno != EINTR { return nil }
        }
    }

    private static func text(of address: in_addr) -> String {
        var address = address
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil else { return "" }
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
