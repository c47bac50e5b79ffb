import Foundation
import StreamKit

/// One WebSocket frame (RFC 6455 §5.2): what `WebSocketFrameReader` cuts out of the bytes a server
/// sends, and the bytes of a client frame (always masked, §5.3).
struct WebSocketFrame: Equatable {
    /// The frame kinds of §5.2; others are reserved and refused.
    enum Opcode: UInt8 {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        /// Close, ping and pong (§5.5): short, never fragmented, allowed between a message's fragments.
        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    let final: Bool
    let opcode: Opcode
    let payload: [UInt8]

    /// The bytes of this frame as a client sends it: FIN, the opcode, the mask bit and `mask`, the
    /// length in its shortest form and the payload masked with `mask` (four random bytes a frame).
    func clientBytes(mask: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode.rawValue]
        switch payload.count {
        case 0..<126:
            bytes.append(0x80 | UInt8(payload.count))
        case 126...0xFFFF:
            bytes.append(0x80 | 126)
            bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(0x80 | 127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> (8 * UInt64($0))) }
        }
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        return bytes
    }

    /// Four fresh random bytes for a client frame's mask.
    static func randomMask() -> [UInt8] {
        (0..<4).map { _ in UInt8.random(in: .min ... .max) }
    }
}

/// Cuts server frames out of received bytes, refusing what RFC 6455 forbids a server to send
/// (reserved bits or opcodes, a masked frame, a long or fragmented control frame) and any frame
/// longer than `limit` as soon as its header says so, before its payload is read: the buffer never
/// holds more than one frame of at most `limit` bytes and one receive's worth beyond it.
struct WebSocketFrameReader {
    let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0

    init(limit: Int) {
        self.limit = limit
    }

    mutating func append(_ bytes: [UInt8]) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer += bytes
    }

    /// The next whole frame, or nil until more bytes have come.
    mutating func next() throws(StatusFailure) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw .protocolError(tr("a WebSocket frame with reserved bits set")) }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw .protocolError(tr("a WebSocket frame of an unknown kind"))
        }
        guard second & 0x80 == 0 else { throw .protocolError(tr("a masked WebSocket frame from the server")) }
        let final = first & 0x80 != 0
        var header = 2
        var length = UInt64(second & 0x7F)
        if length == 126 || length == 127 {
            let size = length == 126 ? 2 : 8
            guard available >= 2 + size else { return nil }
            length = buffer[(start + 2)..<(start + 2 + size)].reduce(0) { $0 << 8 | UInt64($1) }
            header += size
        }
        if opcode.isControl && (length > 125 || !final) {
            throw .protocolError(tr("a WebSocket control frame that is too long or fragmented"))
        }
        guard length <= UInt64(limit) else { throw Self.tooLarge(length, limit: limit) }
        guard available >= header + Int(length) else { return nil }
        let payload = Array(buffer[(start + header)..<(start + header + Int(length))])
        start += header + Int(length)
        return WebSocketFrame(final: final, opcode: opcode, payload: payload)
    }

    /// The failure for a message of `length` bytes over `limit`.
    static func tooLarge(_ length: UInt64, limit: Int) -> StatusFailure {
        .protocolError(String(format: tr("a message of %d bytes, over the %d MB limit"), Int(min(length, UInt64(Int.max))), max(1, limit / 1_000_000)))
    }
}
