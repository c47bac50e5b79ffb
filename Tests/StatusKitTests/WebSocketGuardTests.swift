import CSoup
import CWebSocketGuard
import Foundation
@testable import StatusKit
import XCTest

/// The guard under libsoup's WebSocket reads (CWebSocketGuard), read directly over bytes a server
/// sent: what it hands libsoup, and what it refuses. The connection's behaviour with a real peer is
/// CrealityConnectionTests'.
final class WebSocketGuardTests: XCTestCase {
    private static let switched = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)
    private static let limits = LwWebsocketGuardLimits(max_message: 100, ping_spacing: 60, control_frames: 50, pause: 0.05)

    /// A server frame (unmasked).
    private func frame(_ opcode: UInt8, _ payload: [UInt8], final: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
        switch payload.count {
        case 0..<126: bytes.append(UInt8(payload.count))
        case 126...0xFFFF: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> (8 * UInt64($0))) }
        }
        return bytes + payload
    }

    /// What the guard hands over for `bytes` (read 1 KiB at a time, as libsoup does), and the error
    /// that ended the reading.
    private func guarded(_ bytes: [UInt8], limits: LwWebsocketGuardLimits = limits) -> (out: [UInt8], code: Int32?, message: String?) {
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let input = g_memory_input_stream_new_from_bytes(data)
        let output = g_memory_output_stream_new_resizable()
        let base = g_simple_io_stream_new(input, output)
        var copy = limits
        let stream = lw_websocket_guard_stream_new(base, &copy)
        defer {
            [UnsafeMutableRawPointer(stream), UnsafeMutableRawPointer(base), UnsafeMutableRawPointer(output), UnsafeMutableRawPointer(input)].forEach { g_object_unref($0) }
            g_bytes_unref(data)
        }
        let guardInput = OpaquePointer(g_io_stream_get_input_stream(stream))
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            var error: UnsafeMutablePointer<GError>?
            let got = g_pollable_input_stream_read_nonblocking(guardInput, &buffer, gsize(buffer.count), nil, &error)
            if let error {
                defer { g_error_free(error) }
                XCTAssertEqual(error.pointee.domain, lw_websocket_guard_error_quark())
                return (out, error.pointee.code, String(cString: error.pointee.message))
            }
            guard got > 0 else { return (out, nil, nil) }
            out += buffer[0..<got]
        }
    }

    func testTextIsHandedOverAsBinaryAndPingsWithinTheSpacingDropped() {
        let notUTF8: [UInt8] = Array("{\"printFileName\":\"".utf8) + [0xC3, 0x28, 0xFF] + Array("\"}".utf8)
        let sent = Self.switched + frame(0x1, Array("hi".utf8)) + frame(0x9, [1]) + frame(0x9, [2]) + frame(0xA, [3])
            + frame(0x1, notUTF8) + frame(0x1, Array("{\"a\":".utf8), final: false) + frame(0x9, [4]) + frame(0x0, Array("1}".utf8))
        let result = guarded(sent)
        XCTAssertNil(result.message)
        let expected = Self.switched + frame(0x2, Array("hi".utf8)) + frame(0x9, [1]) + frame(0xA, [3])
            + frame(0x2, notUTF8) + frame(0x2, Array("{\"a\":".utf8), final: false) + frame(0x0, Array("1}".utf8))
        XCTAssertEqual(result.out, expected, "text as binary (libsoup would fail the connection on the one that is not UTF-8); the pings after the first within the spacing dropped")
    }

    /// A header cut by the end of one read from the socket (64 KiB) is read whole across two.
    func testAHeaderSplitAcrossReadsIsRead() {
        let filler = frame(0x2, [UInt8](repeating: 7, count: 65_536 - Self.switched.count - 4 - 1))
        XCTAssertEqual(Self.switched.count + filler.count, 65_535)
        let sent = Self.switched + filler + frame(0x1, [UInt8](repeating: 0x41, count: 200)) + frame(0x1, Array("ok".utf8))
        let result = guarded(sent, limits: LwWebsocketGuardLimits(max_message: 1 << 20, ping_spacing: 0.1, control_frames: 50, pause: 0.05))
        XCTAssertNil(result.message)
        XCTAssertEqual(result.out, Self.switched + filler + frame(0x2, [UInt8](repeating: 0x41, count: 200)) + frame(0x2, Array("ok".utf8)))
    }

    /// libsoup 3.2 caps frames only: the guard caps a message, its fragments together, from their
    /// headers, before the payload over the limit is handed over; the user is told its size.
    func testAFragmentedMessageOverTheLimitIsRefusedFromItsHeaders() {
        let first = frame(0x1, [UInt8](repeating: 0x41, count: 60), final: false)
        let result = guarded(Self.switched + first + frame(0x0, [UInt8](repeating: 0x42, count: 60)))
        XCTAssertEqual(result.code, Int32(LW_WEBSOCKET_GUARD_TOO_BIG.rawValue))
        XCTAssertEqual(result.out, Self.switched + [0x02] + first.dropFirst(), "the first fragment only")
        var error = GError(domain: lw_websocket_guard_error_quark(), code: result.code ?? 0, message: nil)
        let failure = result.message!.withCString { message in
            error.message = UnsafeMutablePointer(mutating: message)
            return WebSocketFailure.open(error)
        }
        XCTAssertEqual(failure, .protocolError("a message of 120 bytes, over the 1 MB limit"))
    }

    func testFramesAServerMayNotSendAreRefused() {
        let cases: [([UInt8], LwWebsocketGuardError)] = [
            ([0xC1, 0x00], LW_WEBSOCKET_GUARD_RESERVED_BITS), ([0x83, 0x00], LW_WEBSOCKET_GUARD_UNKNOWN_KIND),
            ([0x81, 0x81, 1, 2, 3, 4, 0x41], LW_WEBSOCKET_GUARD_MASKED), ([0x09, 0x00], LW_WEBSOCKET_GUARD_BAD_CONTROL),
            ([0x80, 0x00], LW_WEBSOCKET_GUARD_ORPHAN_CONTINUATION), (frame(0x1, [1], final: false) + frame(0x1, [2]), LW_WEBSOCKET_GUARD_NESTED_MESSAGE),
        ]
        for (bytes, code) in cases {
            XCTAssertEqual(guarded(Self.switched + bytes).code, Int32(code.rawValue), "\(bytes)")
        }
    }

    /// Before the handshake's answer ends, and after one that is not 101, the bytes are libsoup's
    /// to read as they came.
    func testAnAnswerThatIsNotASwitchPassesUntouched() {
        let sent = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\n".utf8) + [0xC1, 0x00, 0x81, 0x00]
        let result = guarded(sent)
        XCTAssertNil(result.message)
        XCTAssertEqual(result.out, sent)
    }
}
