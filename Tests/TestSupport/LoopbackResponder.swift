import Foundation

/// A fake printer's discovery port on 127.0.0.1: answers every datagram it receives with what
/// `answer` makes of it (nothing for nil), to the asker's address and port, and records what it
/// was asked. Bound without port reuse, so a test knows it holds the port.
public final class LoopbackResponder: @unchecked Sendable {
    public let port: UInt16
    private let descriptor: Int32
    private let lock = NSLock()
    private var received: [[UInt8]] = []
    private var thread: Thread?

    /// Nil when `port` cannot be bound on 127.0.0.1.
    public init?(port: UInt16 = 0, answer: @escaping @Sendable ([UInt8]) -> [[UInt8]]?) {
        guard let socket = LoopbackSender.exclusiveSocket(port: port) else { return nil }
        descriptor = socket.descriptor
        self.port = socket.port
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [unowned self] in serve(answer) }
        self.thread = thread
        thread.start()
    }

    /// What it was asked, in order.
    public var asks: [[UInt8]] { lock.withLock { received } }

    /// Stops answering and closes the port.
    public func stop() {
        thread?.cancel()
        while thread?.isFinished == false { usleep(10_000) }
        thread = nil
        close(descriptor)
    }

    deinit { if thread != nil { stop() } }

    private func serve(_ answer: ([UInt8]) -> [[UInt8]]?) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !Thread.current.isCancelled {
            var sender = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length) }
                }
            }
            guard count >= 0 else { continue }
            let datagram = Array(buffer[..<count])
            lock.withLock { received.append(datagram) }
            // Answers go back only to a loopback asker.
            guard sender.sin_addr.s_addr == UInt32(0x7F00_0001).bigEndian else { continue }
            for reply in answer(datagram) ?? [] {
                _ = reply.withUnsafeBytes { bytes in
                    withUnsafePointer(to: &sender) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, length) }
                    }
                }
            }
        }
    }
}
