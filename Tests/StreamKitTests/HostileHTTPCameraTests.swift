import StreamKit
import TestSupport
import XCTest

/// HTTP "cameras" that try to make Layerwatch buffer without end or go elsewhere, against a real
/// loopback peer: parts and bodies over the frame limit, an HLS playlist, an SDP body. Each must
/// end quickly in a clear error, with memory bounded and nothing reaching another host.
final class HostileHTTPCameraTests: XCTestCase {
    private func makeSession(_ path: String, server: TestServer) -> StreamSession {
        var options = SessionOptions()
        options.backoff = Backoff(initial: 5, maximum: 5, jitter: 0)
        return StreamSession(source: try! StreamSource.parse("http://127.0.0.1:\(server.port)\(path)"), options: options)
    }

    /// The first failure of a session on `path` of `server`.
    private func firstFailure(_ path: String, server: TestServer) -> FirstFailure {
        FirstFailure { makeSession(path, server: server) }
    }

    private func assertFrameTooLarge(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try TestServer(script: "hostile_http_server.py")
        let result = firstFailure(path, server: server)
        guard case .protocolError(let detail)? = result.failure else {
            return XCTFail("\(path): expected a protocol error, got \(String(describing: result.failure))", file: file, line: line)
        }
        XCTAssertTrue(detail.contains("larger than 8 MiB"), detail, file: file, line: line)
        XCTAssertTrue(result.failure!.userMessage.contains("the camera sent a frame larger than 8 MiB"), file: file, line: line)
        XCTAssertLessThan(result.seconds, 3, "\(path): a clear error at once, not after a deadline", file: file, line: line)
        XCTAssertLessThan(result.grewBy, 64 << 20, "\(path): memory stays bounded by the frame limit", file: file, line: line)
        XCTAssertEqual(result.failure?.isRetryable, true, file: file, line: line)
    }

    func testAWebRTCAddressFetchedAsAnHTTPCameraIsNamedNotFFmpegsWords() throws {
        let server = try TestServer(script: "hostile_http_server.py")
        let result = firstFailure("/post-only", server: server)
        XCTAssertEqual(result.failure, .webRTCAddress, "HTTP 405 to a GET, as a WHEP endpoint answers")
        let message = try XCTUnwrap(result.failure?.userMessage)
        XCTAssertEqual(message, "This looks like a WebRTC (WHEP) address — use webrtc:http://…")
        for words in ["Server returned", "4XX", "40{0,1,3,4}"] { XCTAssertFalse(message.contains(words), words) }
        XCTAssertEqual(result.failure?.isRetryable, false, "asking again gets the same 405")
    }

    func testAnotherHTTPErrorIsToldByItsStatusNotFFmpegsWords() throws {
        let server = try TestServer(script: "hostile_http_server.py")
        let result = firstFailure("/gone", server: server)
        XCTAssertEqual(result.failure, .protocolError("it answered with error 410 Gone"))
    }

    func testPartAnnouncingTwoGigabytesIsRefusedAtOnce() throws {
        try assertFrameTooLarge("/huge-part")
    }

    func testPartAnnouncingATerabyteIsRefusedAtOnce() throws {
        try assertFrameTooLarge("/huge-length")
    }

    func testPartWhoseBoundaryNeverComesStopsAtTheLimit() throws {
        try assertFrameTooLarge("/endless-part")
    }

    func testSnapshotWithoutEndStopsAtTheLimit() throws {
        try assertFrameTooLarge("/endless-snapshot")
    }

    func testOneGoodFrameAConnectionDoesNotResetTheBackoff() throws {
        let server = try TestServer(script: "hostile_http_server.py")
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 5, jitter: 0)
        let session = StreamSession(source: try StreamSource.parse("http://127.0.0.1:\(server.port)/huge-part"), options: options)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.reconnectAttempts.count >= 4 }, "\(recorder.states)")
        XCTAssertTrue(recorder.frameCount >= 4, "each connection showed a frame first: \(recorder.frameCount)")
        XCTAssertEqual(Array(recorder.reconnectAttempts.prefix(4)), [1, 2, 3, 4],
                       "the delays grow although every connection went live for a moment")
    }

    func testEmptyPartsAreSkippedAndTheStreamStaysLive() throws {
        let server = try TestServer(script: "hostile_http_server.py", arguments: ["--fps", "25"])
        let session = makeSession("/empty-parts", server: server)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        // Two good parts in every five, at 25 parts a second: 12 frames take about 1.2 s.
        XCTAssertNotNil(recorder.waitForFrames(12, timeout: 10), "states: \(recorder.states)")
        XCTAssertEqual(recorder.states.last, .live)
        XCTAssertFalse(recorder.states.contains { $0.failure != nil }, "states: \(recorder.states)")
        XCTAssertEqual(server.events(named: "request").count, 1, "one connection: no reconnect")
    }

    func testHLSPlaylistIsRefusedAndItsSegmentHostNeverContacted() throws {
        let other = try TestServer(script: "sink_server.py")
        let server = try TestServer(script: "hostile_http_server.py", arguments: ["--other-port", "\(other.port)"])
        let result = firstFailure("/hls", server: server)
        guard case .protocolError(let detail)? = result.failure else {
            return XCTFail("expected a protocol error, got \(String(describing: result.failure))")
        }
        XCTAssertTrue(detail.contains("application/vnd.apple.mpegurl"), detail)
        XCTAssertTrue(detail.contains("neither an MJPEG stream nor a JPEG picture"), detail)
        XCTAssertLessThan(result.seconds, 3)
        XCTAssertNil(other.waitFor("accepted", timeout: 1), "the playlist's host must never be contacted")
        XCTAssertTrue(other.events(named: "data").isEmpty)
    }

    func testSDPBodyIsRefusedWithoutOpeningAUDPSocket() throws {
        let udpPort = Int.random(in: 40000...49999)
        XCTAssertFalse(UDPSockets.isBound(port: udpPort))
        let server = try TestServer(script: "hostile_http_server.py", arguments: ["--udp-port", "\(udpPort)"])
        let started = Date()
        let session = makeSession("/sdp", server: server)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        var sawSocket = false
        // FFmpeg's SDP demuxer would bind the SDP's port on 0.0.0.0 and wait there for RTP.
        while Date().timeIntervalSince(started) < 2 {
            sawSocket = sawSocket || UDPSockets.isBound(port: udpPort)
            usleep(10_000)
        }
        XCTAssertFalse(sawSocket, "no UDP socket may be bound for an HTTP camera")
        guard case .protocolError(let detail)? = recorder.states.lazy.compactMap(\.failure).first else {
            return XCTFail("expected a protocol error, states: \(recorder.states)")
        }
        XCTAssertTrue(detail.contains("application/sdp"), detail)
    }
}

/// UDP sockets bound on this machine, from /proc/net/udp and udp6.
enum UDPSockets {
    static func isBound(port: Int) -> Bool {
        let hex = String(format: ":%04X", port)
        return ["/proc/net/udp", "/proc/net/udp6"].contains { path in
            let table = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return table.split(separator: "\n").dropFirst().contains { line in
                line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first?.hasSuffix(hex) == true
            }
        }
    }
}
