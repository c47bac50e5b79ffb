import StreamKit
import TestSupport
import XCTest

/// The WebRTC source against a real peer (aiortc, `webrtc_camera.py`) on loopback in each signalling
/// style, on Debian's aiortc and on PyPI's current one: pictures decode at the camera's size and
/// colours, every ICE candidate on either side is 127.0.0.1, a WHEP session is DELETEd on stop, the
/// session reconnects when the camera dies and comes back, and hostile answers are refused with
/// their own words.
final class WebRTCStreamTests: XCTestCase {
    /// The camera's four quadrants (red, green, blue, white), sampled at their centres.
    private func assertQuadrants(_ frame: VideoFrame, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 320, height: 240), file: file, line: line)
        let expected: [(x: Int, y: Int, rgb: (Int, Int, Int))] = [
            (80, 60, (255, 0, 0)), (240, 60, (0, 255, 0)), (80, 180, (0, 0, 255)), (240, 180, (255, 255, 255)),
        ]
        for point in expected {
            let pixel = frame.rgb(x: point.x, y: point.y)
            let close = abs(Int(pixel.r) - point.rgb.0) <= 40 && abs(Int(pixel.g) - point.rgb.1) <= 40
                && abs(Int(pixel.b) - point.rgb.2) <= 40
            XCTAssertTrue(close, "(\(point.x), \(point.y)) is \(pixel), expected \(point.rgb)", file: file, line: line)
        }
    }

    /// Every candidate either side gave: all 127.0.0.1, and at least one each.
    private func assertLoopbackCandidates(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) {
        for name in ["offer", "answer"] {
            let addresses = server.events(named: name).flatMap { ($0.fields["candidates"] as? [String]) ?? [] }
            XCTAssertFalse(addresses.isEmpty, "\(name) carried no candidate", file: file, line: line)
            XCTAssertEqual(Set(addresses), ["127.0.0.1"], "\(name) candidates", file: file, line: line)
        }
    }

    private func playAndCheck(style: String, path: String, codec: String = "h264", aiortc: Aiortc = .chosen,
                              file: StaticString = #filePath, line: UInt = #line) throws -> TestServer {
        let server = try TestServer(script: "webrtc_camera.py", arguments: ["--style", style, "--codec", codec],
                                    interpreter: try aiortc.python())
        let session = StreamSession(source: try StreamSource.parse("webrtc:http://127.0.0.1:\(server.port)\(path)"))
        let recorder = SessionRecorder(session: session)
        let frame = try XCTUnwrap(recorder.waitForFrames(5, timeout: 20), "\(aiortc) aiortc, states: \(recorder.states)",
                                  file: file, line: line)
        assertQuadrants(frame, file: file, line: line)
        XCTAssertEqual(session.stats.codec, codec, file: file, line: line)
        assertLoopbackCandidates(server, file: file, line: line)
        session.stop()
        return server
    }

    /// Each style plays from both aiortc releases: PyPI's offers only ECDHE-ECDSA cipher suites, so
    /// Layerwatch's DTLS certificate must be ECDSA (GStreamer's own is RSA: "no shared cipher").
    func testWHEPPlaysOnLoopbackAndDeletesTheSessionOnStop() throws {
        for aiortc in Aiortc.allCases {
            let server = try playAndCheck(style: "whep", path: "/cam/whep", aiortc: aiortc)
            XCTAssertEqual(server.waitFor("delete", timeout: 5)?.string("path"), "/whep/session/1", "\(aiortc) aiortc")
        }
    }

    func testGo2RTCAPIPlays() throws {
        for aiortc in Aiortc.allCases {
            _ = try playAndCheck(style: "go2rtc", path: "/api/webrtc?src=printer", aiortc: aiortc)
        }
    }

    func testCameraStreamerPlaysTheCamerasOffer() throws {
        for aiortc in Aiortc.allCases {
            _ = try playAndCheck(style: "camera-streamer", path: "/webcam/webrtc#format=camera-streamer", aiortc: aiortc)
        }
    }

    func testCrealityPlaysDespiteTheAnswersQuirks() throws {
        for aiortc in Aiortc.allCases {
            _ = try playAndCheck(style: "creality", path: "/call/webrtc_local#format=creality", aiortc: aiortc)
        }
    }

    func testVP8CameraPlays() throws {
        _ = try playAndCheck(style: "whep", path: "/cam/whep", codec: "vp8")
    }

    func testReconnectsWhenTheCameraDiesAndComesBack() throws {
        var server = try TestServer(script: "webrtc_camera.py")
        let port = server.port
        let session = StreamSession(source: try StreamSource.parse("webrtc:http://127.0.0.1:\(port)/cam/whep"))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(3, timeout: 20), "states: \(recorder.states)")
        server.stop()
        XCTAssertNotNil(recorder.waitForState(timeout: 15) { if case .reconnecting = $0 { return true } else { return false } },
                        "states: \(recorder.states)")
        server = try TestServer(script: "webrtc_camera.py", arguments: ["--port", String(port)])
        let before = recorder.frameCount
        let frame = try XCTUnwrap(recorder.waitForFrames(before + 3, timeout: 40), "states: \(recorder.states)")
        assertQuadrants(frame)
        XCTAssertEqual(session.state, .live)
    }

    /// The camera `failure(hostile:)` last started.
    private var lastServer: TestServer?

    private func failure(hostile: String) throws -> StreamFailure? {
        let server = try TestServer(script: "webrtc_camera.py", arguments: ["--hostile", hostile])
        lastServer = server
        let session = StreamSession(source: try StreamSource.parse("webrtc:http://127.0.0.1:\(server.port)/cam/whep"))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let state = recorder.waitForState(timeout: 15) {
            if case .reconnecting = $0 { return true }
            if case .failed = $0 { return true }
            return false
        }
        switch state {
        case .reconnecting(_, _, let failure)?, .failed(let failure)?: return failure
        default: return nil
        }
    }

    func testAnswerThatIsNotSDPIsRefused() throws {
        XCTAssertEqual(try failure(hostile: "not-sdp"), .protocolError("the camera's WebRTC answer is not a session description"))
    }

    func testAnswerWithoutVideoIsRefusedAndItsSessionEnded() throws {
        XCTAssertEqual(try failure(hostile: "no-video"), .protocolError("the camera's WebRTC answer has no video"))
        XCTAssertFalse(lastServer?.events(named: "delete").isEmpty ?? true, "the refused WHEP session is DELETEd")
    }

    func testCandidateAtAnotherHostIsNeverContacted() throws {
        // The answer's only candidate is 10.0.0.1: it is dropped before webrtcbin sees the answer, so
        // ICE never starts and no packet goes there.
        XCTAssertEqual(try failure(hostile: "foreign-candidate"),
                       .protocolError("the camera's WebRTC answer has no ICE candidate at its own address 127.0.0.1"))
    }

    func testHugeAnswerIsRefused() throws {
        XCTAssertEqual(try failure(hostile: "huge"), .protocolError("the answer is larger than 64 kB"))
    }

    func testThousandsOfCandidatesAtOtherHostsAreIgnored() throws {
        let server = try TestServer(script: "webrtc_camera.py", arguments: ["--hostile", "many-candidates"])
        let session = StreamSession(source: try StreamSource.parse("webrtc:http://127.0.0.1:\(server.port)/cam/whep"))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 20), "states: \(recorder.states)")
        assertQuadrants(frame)
        XCTAssertEqual(Set(server.events(named: "offer").flatMap { ($0.fields["candidates"] as? [String]) ?? [] }), ["127.0.0.1"])
    }

    /// A camera that lists 20 candidates on its own host (ports this test listens on, before its own
    /// and of the same priority) draws connectivity checks at two of them, not at every one. It
    /// still plays: its own checks reach Layerwatch from its real port, a peer-reflexive candidate.
    func testManyCandidatesOnTheCamerasOwnHostDrawChecksAtTwoPorts() throws {
        let decoys = try STUNListeners(count: 20)
        let server = try TestServer(script: "webrtc_camera.py",
                                    arguments: ["--hostile", "own-candidates", "--decoy-ports", decoys.ports.map(String.init).joined(separator: ",")])
        let session = StreamSession(source: try StreamSource.parse("webrtc:http://127.0.0.1:\(server.port)/cam/whep"))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        assertQuadrants(try XCTUnwrap(recorder.waitForFrames(3, timeout: 20), "states: \(recorder.states)"))
        Thread.sleep(forTimeInterval: 2)  // checks go on for a while after the first pair works
        let checked = decoys.portsThatReceivedSTUN()
        XCTAssertFalse(checked.isEmpty, "no check reached the camera's listed ports")
        XCTAssertLessThanOrEqual(checked.count, 2, "ports checked: \(checked.sorted())")
    }

    /// A WebRTC camera that never answers its signalling times out in a camera's terms, also as the
    /// cause of its MJPEG fallback.
    func testASilentCameraTimesOutInTheCamerasTerms() throws {
        let silent = try TestServer(script: "silent_server.py")
        let expected = "The camera did not answer in time — check that it is on and on the same network."
        let source = try StreamSource.parse("webrtc:http://127.0.0.1:\(silent.port)/webcam/webrtc#format=camera-streamer")
        let report = StreamProbe.run(source: source, frames: 3, timeout: 15)
        XCTAssertEqual(report.error?.kind, "timeout", "\(report)")
        XCTAssertEqual(report.error?.message, expected)

        let mjpeg = try TestServer(script: "mjpeg_server.py")
        let withFallback = StreamProbe.run(source: source.withMJPEGFallback("http://127.0.0.1:\(mjpeg.port)/stream"), frames: 3, timeout: 20)
        XCTAssertTrue(withFallback.ok, "\(withFallback)")
        XCTAssertEqual(withFallback.fallbackCause?.kind, "timeout", "\(withFallback)")
        XCTAssertEqual(withFallback.fallbackCause?.message, expected)
    }

    func testICEThatCannotConnectSaysSo() throws {
        XCTAssertEqual(try failure(hostile: "dead-candidate"), .mediaUnreachable)
    }

    func testSecretsInTheURLAreMasked() throws {
        let source = try StreamSource.parse("webrtc:http://user:s3cretPass@127.0.0.1:1984/api/webrtc?src=cam&token=T0kenValue")
        XCTAssertFalse(source.description.contains("s3cretPass"), source.description)
        XCTAssertFalse(source.description.contains("T0kenValue"), source.description)
        XCTAssertTrue(source.description.hasPrefix("webrtc:http://"), source.description)
    }

    func testUnknownFormatIsRefusedWhenParsed() {
        XCTAssertThrowsError(try StreamSource.parse("webrtc:http://127.0.0.1:8000/x#format=janus"))
        XCTAssertThrowsError(try StreamSource.parse("webrtc:rtsp://127.0.0.1/x"))
    }
}
