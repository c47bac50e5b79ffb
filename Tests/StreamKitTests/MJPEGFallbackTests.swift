import StreamKit
import TestSupport
import XCTest

/// A camera-streamer camera's MJPEG fallback against real peers on loopback: WebRTC that is absent,
/// refused or cannot connect gives way to the MJPEG (`mjpeg_server.py`) in the same round, working
/// WebRTC plays without touching the MJPEG, and a WebRTC that comes back is played again at the
/// next reconnect.
final class MJPEGFallbackTests: XCTestCase {
    /// The camera-streamer source at `signalling` with its fallback at `fallback` (relative to it).
    private func source(_ signalling: String, fallback: String) throws -> StreamSource {
        try StreamSource.parse("webrtc:\(signalling)#format=camera-streamer").withMJPEGFallback(fallback)
    }

    /// `webrtc_camera.py`'s four quadrants at 320×240.
    private func assertQuadrants(_ frame: VideoFrame, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 320, height: 240), file: file, line: line)
        for (x, y, rgb) in [(80, 60, (255, 0, 0)), (240, 60, (0, 255, 0)), (80, 180, (0, 0, 255)), (240, 180, (255, 255, 255))] {
            let pixel = frame.rgb(x: x, y: y)
            let close = abs(Int(pixel.r) - rgb.0) <= 40 && abs(Int(pixel.g) - rgb.1) <= 40 && abs(Int(pixel.b) - rgb.2) <= 40
            XCTAssertTrue(close, "(\(x), \(y)) is \(pixel), expected \(rgb)", file: file, line: line)
        }
    }

    /// Plays `source` until frames come and checks they are the MJPEG server's bars.
    private func assertPlaysBars(_ source: StreamSource, cause: StreamFailure,
                                 file: StaticString = #filePath, line: UInt = #line) throws -> StreamSession {
        let session = StreamSession(source: source)
        let recorder = SessionRecorder(session: session)
        let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 20), "states: \(recorder.states)", file: file, line: line)
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 640, height: 480), file: file, line: line)
        SMPTEBars.assertBars(in: frame, intensity: .ffmpeg, file: file, line: line)
        XCTAssertEqual(session.stats.codec, "mjpeg", file: file, line: line)
        XCTAssertEqual(session.stats.fallbackCause, cause, file: file, line: line)
        XCTAssertFalse(recorder.states.contains { $0.isReconnecting || $0.isFailed }, "the fallback plays in the first round: \(recorder.states)",
                       file: file, line: line)
        return session
    }

    func testCameraStreamerWithoutWebRTCPlaysItsMJPEG() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        let session = try assertPlaysBars(try source("http://127.0.0.1:\(camera.port)/webcam/webrtc", fallback: "stream"), cause: .notFound)
        defer { session.stop() }
        let requests = camera.events(named: "request").map { "\($0.string("method") ?? "GET") \($0.string("path") ?? "")" }
        XCTAssertEqual(Array(requests.prefix(2)), ["POST /webcam/webrtc", "GET /webcam/stream"], "WebRTC first, then the MJPEG beside it")
    }

    func testAProbeSaysTheFallbackPlayed() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        let report = StreamProbe.run(source: try source("http://127.0.0.1:\(camera.port)/webcam/webrtc", fallback: "stream"),
                                     frames: 3, timeout: 20)
        XCTAssertTrue(report.ok, "\(report)")
        XCTAssertEqual(report.codec, "mjpeg")
        XCTAssertEqual([report.width, report.height], [640, 480])
        XCTAssertEqual(report.fallbackCause?.kind, "notFound")
    }

    func testRefusedSignallingPlaysTheMJPEG() throws {
        let mjpeg = try TestServer(script: "mjpeg_server.py")
        let session = try assertPlaysBars(try source("http://127.0.0.1:\(closedLoopbackPort())/webcam/webrtc",
                                                     fallback: "http://127.0.0.1:\(mjpeg.port)/stream"), cause: .refused)
        session.stop()
    }

    /// Any WebRTC style falls back alike; WHEP's camera is the one whose peer can be made to vanish
    /// after answering (a camera-streamer camera offers, and ICE then finds Layerwatch's address).
    func testWebRTCWhoseICEFailsPlaysTheMJPEG() throws {
        let camera = try TestServer(script: "webrtc_camera.py", arguments: ["--hostile", "dead-candidate"])
        let mjpeg = try TestServer(script: "mjpeg_server.py")
        let source = try StreamSource.parse("webrtc:http://127.0.0.1:\(camera.port)/cam/whep")
            .withMJPEGFallback("http://127.0.0.1:\(mjpeg.port)/stream")
        let session = try assertPlaysBars(source, cause: .mediaUnreachable)
        session.stop()
    }

    func testWorkingWebRTCPlaysWebRTCAndLeavesTheMJPEGAlone() throws {
        let camera = try TestServer(script: "webrtc_camera.py", arguments: ["--style", "camera-streamer"])
        let mjpeg = try TestServer(script: "mjpeg_server.py")
        let session = StreamSession(source: try source("http://127.0.0.1:\(camera.port)/webcam/webrtc",
                                                       fallback: "http://127.0.0.1:\(mjpeg.port)/stream"))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        assertQuadrants(try XCTUnwrap(recorder.waitForFrames(3, timeout: 20), "states: \(recorder.states)"))
        XCTAssertEqual(session.stats.codec, "h264")
        XCTAssertNil(session.stats.fallbackCause)
        XCTAssertTrue(mjpeg.events(named: "request").isEmpty, "the MJPEG was asked: \(mjpeg.events(named: "request").map(\.fields))")
    }

    func testWebRTCThatComesBackIsPlayedAtTheNextReconnect() throws {
        let port = closedLoopbackPort()
        let mjpeg = try TestServer(script: "mjpeg_server.py")
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 0.5)
        let session = StreamSession(source: try source("http://127.0.0.1:\(port)/webcam/webrtc", fallback: "http://127.0.0.1:\(mjpeg.port)/stream"),
                                    options: options)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(3, timeout: 20), "states: \(recorder.states)")
        XCTAssertEqual(session.stats.fallbackCause, .refused)
        let camera = try TestServer(script: "webrtc_camera.py", arguments: ["--style", "camera-streamer", "--port", String(port)])
        mjpeg.stop()
        XCTAssertNotNil(recorder.waitForState(timeout: 15) { $0.isReconnecting }, "states: \(recorder.states)")
        XCTAssertTrue(waitUntil(timeout: 30) { session.stats.codec == "h264" && session.state == .live }, "states: \(recorder.states)")
        let before = recorder.frameCount
        assertQuadrants(try XCTUnwrap(recorder.waitForFrames(before + 3, timeout: 20), "states: \(recorder.states)"))
        XCTAssertNil(session.stats.fallbackCause)
        XCTAssertFalse(camera.events(named: "answer").isEmpty, "the camera offered")
    }

    /// When both fail, WebRTC is tried again unless neither failure would heal: a fallback at a
    /// wrong path (404) does not stop a camera whose WebRTC is only refused for now.
    func testAFallbackThatCannotPlayLeavesWebRTCToBeTriedAgain() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 0.5)
        let refused = StreamSession(source: try source("http://127.0.0.1:\(closedLoopbackPort())/webcam/webrtc",
                                                       fallback: "http://127.0.0.1:\(camera.port)/missing"), options: options)
        let retried = SessionRecorder(session: refused)
        XCTAssertTrue(retried.wait(timeout: 10) { states, _ in states.filter(\.isReconnecting).count >= 2 }, "states: \(retried.states)")
        refused.stop()
        XCTAssertFalse(retried.states.contains { $0.isFailed }, "states: \(retried.states)")
        let failures = retried.states.compactMap(\.failure)
        XCTAssertTrue(!failures.isEmpty && failures.allSatisfy { $0 == .refused }, "WebRTC's failure, the one that may heal: \(failures)")

        let missing = StreamSession(source: try source("http://127.0.0.1:\(camera.port)/webcam/webrtc", fallback: "missing"))
        let stopped = SessionRecorder(session: missing)
        XCTAssertEqual(stopped.waitForState(timeout: 10) { $0.isFailed }, .failed(.notFound), "states: \(stopped.states)")
        XCTAssertNotNil(camera.waitFor("request") { $0.string("path") == "/webcam/missing" })
        XCTAssertEqual(camera.events(named: "request").filter { $0.string("path") == "/webcam/missing" }.count, 1, "tried once, not again")
    }

    func testFallbackOnlyOnTheCamerasHostAndItsSecretsMasked() throws {
        let signalling = "http://maker:s3cret-pass@192.168.1.30/webcam/webrtc"
        let withFallback = try source(signalling, fallback: "stream")
        XCTAssertEqual(withFallback, .webrtc(URL(string: signalling + "#format=camera-streamer")!,
                                             fallback: URL(string: "http://maker:s3cret-pass@192.168.1.30/webcam/stream")!))
        XCTAssertEqual(withFallback.description, "webrtc:http://maker:***@192.168.1.30/webcam/webrtc#format=camera-streamer, "
                       + "MJPEG fallback http://maker:***@192.168.1.30/webcam/stream")
        let token = try source("http://192.168.1.30/webcam/webrtc", fallback: "http://192.168.1.30:8080/stream?token=abc123xyz")
        XCTAssertFalse(token.description.contains("abc123xyz"), token.description)
        XCTAssertEqual(try source(signalling, fallback: "http://10.0.0.9/stream"), try source(signalling, fallback: ""),
                       "another host's MJPEG is no fallback")
        XCTAssertEqual(try source(signalling, fallback: "rtsp://192.168.1.30/stream"), try source(signalling, fallback: ""))
        XCTAssertEqual(try StreamSource.parse("http://192.168.1.30/stream").withMJPEGFallback("stream"),
                       try StreamSource.parse("http://192.168.1.30/stream"), "only WebRTC has a fallback")
    }
}
