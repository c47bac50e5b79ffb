import Foundation
import Glibc
import StreamKit

/// A plain TCP connection, on a non-blocking POSIX socket whose connect is waited for in slices so
/// a stop ends it at once: what tells whether something answers at an address (`CameraReachability`),
/// and what `TLSStream` speaks TLS over (a Bambu printer's FTPS).
/// The status WebSocket, which read and wrote through it before, is libsoup's (`WebSocketClient`).
final class TCPStream: @unchecked Sendable {
    private let socket: Int32
    /// How long one wait in `poll` lasts before the stop signal is looked at again.
    static let slice: TimeInterval = 0.25

    /// The connected socket, non-blocking, for a protocol layered on it; closed with this stream.
    var descriptor: Int32 { socket }

    /// Connects to `host:port` (each address the name resolves to in turn) within `timeout`.
    init(host: String, port: Int, timeout: TimeInterval, stop: StopSignal) throws(StatusFailure) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { throw .timeout }
        defer { freeaddrinfo(list) }
        let deadline = Date().addingTimeInterval(timeout)
        var failure = StatusFailure.timeout
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry?.pointee {
            entry = address.ai_next
            let made = Glibc.socket(address.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard made >= 0 else { continue }
            switch Self.connect(made, address, deadline: deadline, stop: stop) {
            case nil:
                socket = made
                return
            case let result?:
                Glibc.close(made)
                failure = result
                if stop.isStopped || Date() >= deadline { throw failure }
            }
        }
        throw failure
    }

    deinit {
        Glibc.close(socket)
    }

    /// A non-blocking connect of `socket` to `address`, waited for in slices so a stop ends it; nil
    /// once connected.
    private static func connect(_ socket: Int32, _ address: addrinfo, deadline: Date, stop: StopSignal) -> StatusFailure? {
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return failure(errno) }
        while !stop.isStopped {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .timeout }
            var fds = [pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)]
            guard poll(&fds, 1, Int32(min(left, slice) * 1000)) > 0 else { continue }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
            return error == 0 ? nil : failure(error)
        }
        return .timeout
    }

    /// A refused connection is `refused`; an unreachable host or network, or any other error, a
    /// printer that did not answer.
    private static func failure(_ code: Int32) -> StatusFailure {
        code == ECONNREFUSED ? .refused : .timeout
    }
}
