import Foundation
import StreamKit

/// A WebSocket client connection (RFC 6455) for a printer's status: the handshake
/// (`WebSocketHandshake`), then messages in, text messages and pings out. One thread — the status
/// monitor's — calls `receive`, which also writes what other threads queued (`send`, `ping`), so
/// frames never interleave. Pings are answered with pongs (paced and coalesced, and a flood of
/// control frames read at a bounded pace: `ControlFrameBudget`), fragmented messages joined, a close
/// answered and reported as the end; a message larger than `maximumMessage`, or any frame a server
/// may not send, ends the connection with a protocol error before its payload is kept.
final class WebSocketClient: @unchecked Sendable {
    /// The largest message kept: a printer's status message is a few kilobytes.
    static let maximumMessage = 1 << 20
    /// How long sending one frame or the handshake may wait for room.
    static let sendTimeout: TimeInterval = 10

    private let stream: TCPStream
    private var reader = WebSocketFrameReader(limit: WebSocketClient.maximumMessage)
    /// The fragments of a message under way (its first frame's opcode decides nothing here: text and
    /// binary are both handed over as bytes).
    private var fragments: [UInt8]?
    /// When the server last sent anything (a message, a ping or pong, a heartbeat).
    private(set) var lastHeard = Date()
    private var closed = false
    private let lock = NSLock()
    private var outgoing: [WebSocketFrame] = []
    /// The newest ping's payload while its pong waits for `budget` (on the receiving thread only).
    private var unansweredPing: [UInt8]?
    private var budget = ControlFrameBudget()
    /// The most frames waiting to be sent: a few commands and pongs; more are dropped, so a
    /// connection that cannot send holds no growing queue.
    static let maximumQueued = 64

    /// Connects to `ws://host:port/` and completes the handshake within `timeout`.
    init(host: String, port: Int, timeout: TimeInterval, stop: StopSignal) throws(StatusFailure) {
        let deadline = Date().addingTimeInterval(timeout)
        stream = try TCPStream(host: host, port: port, timeout: timeout, stop: stop)
        let handshake = WebSocketHandshake()
        try stream.send(handshake.request(host: host, port: port), timeout: Self.sendTimeout)
        var received: [UInt8] = []
        while true {
            if let end = try WebSocketHandshake.headEnd(in: received) {
                try handshake.check(head: Array(received[..<(end - 4)]))
                reader.append(Array(received[end...]))
                lastHeard = Date()
                return
            }
            guard !stop.isStopped else { throw .timeout }
            guard Date() < deadline else { throw .timeout }
            received += try stream.receive(waiting: min(0.25, max(0, deadline.timeIntervalSinceNow)))
        }
    }

    /// Queues a text message (from any thread); the thread in `receive` sends it at once.
    func send(text: String) {
        queue(WebSocketFrame(final: true, opcode: .text, payload: Array(text.utf8)))
    }

    /// Queues a ping (a pong, or any frame, shows the peer is still there).
    func ping() {
        queue(WebSocketFrame(final: true, opcode: .ping, payload: []))
    }

    /// Wakes the thread in `receive` (from any thread).
    func wakeUp() {
        stream.wakeUp()
    }

    /// Sends a close frame (normal closure, 1000), without waiting for the answer (on the thread
    /// that calls `receive`).
    func close() {
        guard !closed else { return }
        closed = true
        try? write(WebSocketFrame(final: true, opcode: .close, payload: [0x03, 0xE8]))
    }

    /// Sends what is queued, then the whole messages that arrive within `seconds` (each a text or
    /// binary message's bytes): empty when none did or the wait was woken. Throws when the server
    /// closed the connection or sent what the protocol forbids.
    func receive(waiting seconds: TimeInterval) throws(StatusFailure) -> [[UInt8]] {
        try flush()
        // Frames already here (the handshake's answer may carry the first) go without a wait.
        var messages = try buffered()
        if messages.isEmpty {
            if budget.isSpent() { stream.pause(seconds: ControlFrameBudget.pause) }
            let bytes = try stream.receive(waiting: unansweredPing == nil ? seconds : min(seconds, budget.untilPong()))
            if !bytes.isEmpty {
                lastHeard = Date()
                reader.append(bytes)
            }
            messages = try buffered()
        }
        try flush()
        return messages
    }

    /// The whole messages in the frames received so far.
    private func buffered() throws(StatusFailure) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        while let frame = try reader.next() {
            if let message = try take(frame) { messages.append(message) }
        }
        return messages
    }

    /// A frame's part in the conversation: a whole message, a fragment kept, a ping answered.
    private func take(_ frame: WebSocketFrame) throws(StatusFailure) -> [UInt8]? {
        switch frame.opcode {
        case .ping:
            budget.count()
            unansweredPing = frame.payload
            return nil
        case .pong:
            budget.count()
            return nil
        case .close:
            close()
            throw .protocolError(tr("the printer closed the connection"))
        case .text, .binary:
            guard fragments == nil else { throw .protocolError(tr("a new WebSocket message inside a fragmented one")) }
            if frame.final { return frame.payload }
            fragments = frame.payload
            return nil
        case .continuation:
            guard var joined = fragments else { throw .protocolError(tr("a WebSocket continuation frame without a message")) }
            guard joined.count + frame.payload.count <= Self.maximumMessage else {
                throw WebSocketFrameReader.tooLarge(UInt64(joined.count + frame.payload.count), limit: Self.maximumMessage)
            }
            joined += frame.payload
            fragments = frame.final ? nil : joined
            return frame.final ? joined : nil
        }
    }

    private func queue(_ frame: WebSocketFrame) {
        lock.withLock { if outgoing.count < Self.maximumQueued { outgoing.append(frame) } }
        stream.wakeUp()
    }

    /// Writes the queued frames, and the pong of the newest ping once `budget` lets it go.
    private func flush() throws(StatusFailure) {
        let frames = lock.withLock {
            defer { outgoing.removeAll() }
            return outgoing
        }
        for frame in frames { try write(frame) }
        if let payload = unansweredPing, budget.untilPong() == 0 {
            unansweredPing = nil
            budget.ponged()
            try write(WebSocketFrame(final: true, opcode: .pong, payload: payload))
        }
    }

    private func write(_ frame: WebSocketFrame) throws(StatusFailure) {
        try stream.send(frame.clientBytes(mask: WebSocketFrame.randomMask()), timeout: Self.sendTimeout)
    }
}
