import StreamKit
import TestSupport
import XCTest

/// HTTP cameras (Klipper, OctoPrint, Creality) against a real multi-client MJPEG server: streams,
/// polled snapshots, and the errors a misconfigured URL gives.
final class HTTPSourceTests: XCTestCase {
    private func session(_ server: TestServer, _ path: String, options: SessionOptions = SessionOptions()) throws -> StreamSession {
        StreamSession(source: try StreamSource.parse("http://127.0.0.1:\(server.port)\(path)"), options: options)
    }

    func testMJPEGStreamDecodesBarsAndServesManyClients() throws {
        let server = try TestServer(script: "mjpeg_server.py", arguments: ["--fps", "20"])
        let first = try session(server, "/?action=stream")
        let second = try session(server, "/stream")
        let one = SessionRecorder(session: first)
        let two = SessionRecorder(session: second)
        defer {
            first.stop()
            second.stop()
        }
        let frame = try XCTUnwrap(one.waitForFrames(5, timeout: 10), "states: \(one.states)")
        XCTAssertNotNil(two.waitForFrames(5, timeout: 10), "states: \(two.states)")
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 640, height: 480))
        SMPTEBars.assertBars(in: frame, intensity: .ffmpeg)
        XCTAssertEqual(first.stats.codec, "mjpeg")
        XCTAssertEqual(server.events(named: "request").map { $0.int("clients") ?? 0 }.max(), 2)
    }

    func testSnapshotURLIsPolledAtTheInterval() throws {
        let server = try TestServer(script: "mjpeg_server.py")
        var options = SessionOptions()
        options.snapshotInterval = 0.2
        let snapshots = try session(server, "/?action=snapshot", options: options)
        let recorder = SessionRecorder(session: snapshots)
        defer { snapshots.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(4, timeout: 10), "states: \(recorder.states)")
        SMPTEBars.assertBars(in: frame, intensity: .ffmpeg)
        // The server's line for a request may reach the test just after the frame it answered.
        XCTAssertTrue(waitUntil(timeout: 5) { server.events(named: "request").count >= 4 },
                      "each frame is a new request: \(server.events(named: "request").count)")
        XCTAssertFalse(recorder.states.contains { $0.isReconnecting || $0.isFailed }, "polling is not a failure: \(recorder.states)")
    }

    func testMissingPathIsNotFound() throws {
        let server = try TestServer(script: "mjpeg_server.py")
        let missing = try session(server, "/missing")
        let recorder = SessionRecorder(session: missing)
        XCTAssertEqual(recorder.waitForState(timeout: 5) { $0.isFailed }, .failed(.notFound), "states: \(recorder.states)")
    }

    func testWrongPasswordIsRejected() throws {
        let server = try TestServer(script: "mjpeg_server.py", arguments: ["--user", "maker", "--password", "right-one"])
        let wrong = StreamSession(source: try StreamSource.parse("http://maker:wrong-one@127.0.0.1:\(server.port)/private/stream"))
        let rejected = SessionRecorder(session: wrong)
        XCTAssertEqual(rejected.waitForState(timeout: 5) { $0.isFailed }, .failed(.authRejected), "states: \(rejected.states)")

        let right = StreamSession(source: try StreamSource.parse("http://maker:right-one@127.0.0.1:\(server.port)/private/stream"))
        let accepted = SessionRecorder(session: right)
        defer { right.stop() }
        XCTAssertNotNil(accepted.waitForFrames(2, timeout: 10), "states: \(accepted.states)")
    }

    func testGarbageIsAProtocolErrorAndIsRetried() throws {
        let server = try TestServer(script: "mjpeg_server.py")
        var options = SessionOptions()
        options.connectTimeout = 2
        let garbage = try session(server, "/garbage", options: options)
        let recorder = SessionRecorder(session: garbage)
        defer { garbage.stop() }
        let reconnecting = recorder.waitForState(timeout: 10) { $0.isReconnecting }
        XCTAssertNotNil(reconnecting, "states: \(recorder.states)")
        switch reconnecting?.failure {
        case .protocolError, .timeout: break
        default: XCTFail("garbage must be a protocol error (or no picture in time), got \(String(describing: reconnecting))")
        }
        XCTAssertEqual(recorder.frameCount, 0)
    }
}
