import Foundation
import Glibc
import StreamKit

/// A plain TCP connection for the WebSocket status client, on non-blocking POSIX sockets: one
/// thread waits for bytes with `poll` on the socket and a pipe, so another thread can wake it
/// at once (a command to send, a stop). StreamKit's `HTTPConnection` reads through FFmpeg's AVIO,
/// which has no such wake-up and blocks a whole read; a WebSocket must read, answer pings and send
/// commands on one connection for as long as it lasts.
final class TCPStream: @unchecked Sendable {
    private let socket: Int32
    /// The wake-up pipe: `poll` watches its read end, `wakeUp` writes a byte to its write end.
    private let wake: (read: Int32, write: Int32)

    /// The most a single `receive` takes from the socket.
    static let chunk = 64 * 1024
    /// How long one wait in `poll` lasts before the stop signal is looked at again.
    private static let slice: TimeInterval = 0.25

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
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else {
                    Glibc.close(made)
                    throw .protocolError("pipe failed")
                }
                for end in ends {
                    _ = fcntl(end, F_SETFL, O_NONBLOCK)
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                }
                socket = made
                wake = (ends[0], ends[1])
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
        Glibc.close(wake.read)
        Glibc.close(wake.write)
    }

    /// Wakes a thread waiting in `receive` (from any thread).
    func wakeUp() {
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)  // a full pipe already wakes it
    }

    /// Up to `chunk` bytes, waiting at most `seconds` for them: empty when none came in that time or
    /// `wakeUp` was called. Throws when the peer closed the connection or it failed.
    func receive(waiting seconds: TimeInterval) throws(StatusFailure) -> [UInt8] {
        var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, Int32(max(0, seconds) * 1000))
        if ready <= 0 { return [] }
        if fds[1].revents != 0 {
            var drained = [UInt8](repeating: 0, count: 64)
            _ = read(wake.read, &drained, drained.count)
        }
        guard fds[0].revents != 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Self.chunk)
        let got = bytes.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if got > 0 { return Array(bytes.prefix(got)) }
        if got < 0 && (errno == EAGAIN || errno == EINTR) { return [] }
        throw .protocolError(tr("the printer closed the connection"))
    }

    /// Waits `seconds` without reading the socket, or less when `wakeUp` is called.
    func pause(seconds: TimeInterval) {
        var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, Int32(max(0, seconds) * 1000)) > 0 else { return }
        var drained = [UInt8](repeating: 0, count: 64)
        _ = read(wake.read, &drained, drained.count)
    }

    /// Sends all of `bytes`, waiting for room at most `timeout` in all.
    func send(_ bytes: [UInt8], timeout: TimeInterval) throws(StatusFailure) {
        let deadline = Date().addingTimeInterval(timeout)
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if result > 0 {
                sent += result
                continue
            }
            guard result < 0, errno == EAGAIN || errno == EINTR else { throw .protocolError(tr("the printer closed the connection")) }
            guard Date() < deadline else { throw .timeout }
            var fds = [pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)]
            _ = poll(&fds, 1, Int32(Self.slice * 1000))
        }
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
