import StreamKit
import TestSupport
import XCTest

/// RTSP and RTSPS against a real gst-rtsp-server on loopback: pictures decode with the right size and
/// colours, a printer's credentials work, and every view of one printer shares one connection.
final class RTSPStreamTests: XCTestCase {
    func testRTSPDecodesBarsAtTheStreamSize() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480"])
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(5, timeout: 15), "states: \(recorder.states)")
        XCTAssertEqual(frame.width, 640)
        XCTAssertEqual(frame.height, 480)
        // GStreamer tags SD video BT.601, as the colours are decoded here.
        SMPTEBars.assertBars(in: frame, intensity: .gstreamer, tolerance: 8)
        XCTAssertEqual(session.state, .live)
        XCTAssertEqual(session.stats.codec, "h264")
        XCTAssertEqual(session.stats.probedStreamInfo, false, "the SDP names H.264 with its parameter sets")
        let open = try XCTUnwrap(session.stats.timeToOpen), first = try XCTUnwrap(session.stats.timeToFirstFrame)
        XCTAssertGreaterThan(open, 0)
        XCTAssertLessThanOrEqual(open, first, "the stream opens before its first frame")
        XCTAssertLessThan(first, 5)
    }

    func testHDStreamColoursUseTheStreamsBT709Matrix() throws {
        // GStreamer tags HD video BT.709; decoded with swscale's default BT.601 the green bar would
        // read (19, 255, 8). 1280 px into a 640 px view: the box filter, then the colour conversion.
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "1280", "--height", "720"])
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        let recorder = SessionRecorder(session: session, displaySize: PixelSize(width: 640, height: 360))
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 15), "states: \(recorder.states)")
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 640, height: 360))
        XCTAssertEqual(frame.sourceWidth, 1280)
        SMPTEBars.assertBars(in: frame, intensity: .gstreamer, tolerance: 8)
    }

    func testRTSPSWithAccessCodeLikeABambuPrinter() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--tls", "--user", "bblp", "--password", "12345678", "--width", "320", "--height", "240"])
        let source = try StreamSource.parse("rtsps://bblp:12345678@127.0.0.1:\(server.port)/streaming/live/1")
        let session = StreamSession(source: source)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 15), "states: \(recorder.states)")
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 320, height: 240))
        SMPTEBars.assertBars(in: frame, intensity: .gstreamer)
    }

    func testTwoViewsShareOneConnection() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--tls", "--user", "bblp", "--password", "12345678"])
        let registry = SessionRegistry()
        let source = try StreamSource.parse("rtsps://bblp:12345678@127.0.0.1:\(server.port)/streaming/live/1")
        let tab = SessionRecorder(session: registry.session(for: source), displaySize: PixelSize(width: 640, height: 480))
        let mini = SessionRecorder(session: registry.session(for: source), displaySize: PixelSize(width: 320, height: 240))
        defer { registry.session(for: source).stop() }
        XCTAssertNotNil(tab.waitForFrames(5, timeout: 15), "states: \(tab.states)")
        XCTAssertNotNil(mini.waitForFrames(5, timeout: 15), "states: \(mini.states)")
        XCTAssertTrue(tab.consumer.session === mini.consumer.session)
        XCTAssertEqual(mini.lastFrame?.width, 640, "one conversion at the largest view's size serves both")
        XCTAssertEqual(server.events(named: "client").count, 1, "the printer must see exactly one client")
        XCTAssertEqual(server.events(named: "client").last?.int("total"), 1)
    }

    func testLastViewLeavingStopsTheSessionAndClosesTheConnection() throws {
        let server = try TestServer(script: "rtsp_server.py")
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        let first = SessionRecorder(session: session)
        let second = SessionRecorder(session: session)
        XCTAssertNotNil(first.waitForFrames(2, timeout: 15))
        XCTAssertGreaterThanOrEqual(ThreadCensus.count(prefix: StreamSession.workerThreadName), 1, "its worker thread, as /proc names it")
        first.detach()
        XCTAssertEqual(session.state, .live, "one view left: the stream goes on")
        let before = second.frameCount
        XCTAssertNotNil(second.waitForFrames(before + 2, timeout: 5))
        second.detach()
        XCTAssertEqual(session.state, .stopped)
        XCTAssertNotNil(server.waitFor("client-closed", timeout: 5), "the connection must be closed")
        XCTAssertTrue(waitUntil(timeout: 2) { ThreadCensus.count(prefix: StreamSession.workerThreadName) == 0 })
    }
}
