import StreamKit
import TestSupport
import XCTest

/// Bambu P1/A1 cameras (JPEG over TLS, port 6000) against a real loopback imitation,
/// Tests/Servers/bambu_jpeg_server.py: pictures decode with the right size and colours however the
/// reads split them, a printer at 0.5 fps stays live, views share one connection, stop is quick.
final class BambuJPEGStreamTests: XCTestCase {
    private func source(_ server: TestServer, code: String = "12345678") throws -> StreamSource {
        try StreamSource.parse("bambu-jpeg://127.0.0.1:\(server.port)?code=\(code)")
    }

    /// Streams from a server started with `arguments` and checks the pictures are the server's bars.
    private func assertBarsDecode(serverArguments arguments: [String], size: PixelSize,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: arguments)
        let session = StreamSession(source: try source(server))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 15), "states: \(recorder.states)", file: file, line: line)
        XCTAssertEqual(PixelSize(width: frame.sourceWidth, height: frame.sourceHeight), size, file: file, line: line)
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), size, file: file, line: line)
        SMPTEBars.assertBars(in: frame, intensity: .ffmpeg, file: file, line: line)
        XCTAssertEqual(session.stats.codec, "mjpeg", file: file, line: line)
        XCTAssertFalse(recorder.states.contains { $0.isReconnecting || $0.isFailed }, "states: \(recorder.states)",
                       file: file, line: line)
        XCTAssertEqual(server.events(named: "client").count, 1, file: file, line: line)
    }

    func testFramesDecodeToTheBarsAt1280x720() throws {
        try assertBarsDecode(serverArguments: ["--fps", "5"], size: PixelSize(width: 1280, height: 720))
    }

    func testFramesDecodeAtTheSizeThePrinterSends() throws {
        try assertBarsDecode(serverArguments: ["--fps", "5", "--width", "640", "--height", "360"],
                             size: PixelSize(width: 640, height: 360))
    }

    func testFramesSentOneByteAtATimeAreReassembled() throws {
        try assertBarsDecode(serverArguments: ["--fps", "5", "--fragment", "1"], size: PixelSize(width: 1280, height: 720))
    }

    func testFramesSplitAtRandomPlacesAreReassembled() throws {
        try assertBarsDecode(serverArguments: ["--fps", "5", "--fragment", "7"], size: PixelSize(width: 1280, height: 720))
    }

    func testPrinterAtHalfAFramePerSecondStaysLiveDespiteAShortStallTimeout() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--fps", "0.5"])
        var options = SessionOptions()
        options.stallTimeout = 1
        let session = StreamSession(source: try source(server), options: options)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(3, timeout: 10), "states: \(recorder.states)")
        XCTAssertEqual(recorder.states.filter { $0 != .idle }, [.connecting, .live], "2 s between frames is not a stall")
        XCTAssertEqual(server.events(named: "client").count, 1)
    }

    func testFrozenPrinterIsReconnectedAfterFourSeconds() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--fps", "5"])
        var options = SessionOptions()
        options.stallTimeout = 1
        let session = StreamSession(source: try source(server), options: options)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(2, timeout: 10), "states: \(recorder.states)")
        server.freeze()
        let frozenAt = Date()
        let stalled = recorder.waitForState(timeout: 8) { $0.isReconnecting }
        let elapsed = Date().timeIntervalSince(frozenAt)
        XCTAssertEqual(stalled?.failure, .timeout, "states: \(recorder.states)")
        XCTAssertGreaterThan(elapsed, 3.7, "a Bambu printer gets at least 4 s")
        XCTAssertLessThan(elapsed, 4.8)
    }

    func testTwoViewsOfOnePrinterShareOneConnection() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--fps", "5"])
        let registry = SessionRegistry()
        let tabSource = try source(server)
        let miniSource = try StreamSource.parse("BAMBU-JPEG://127.0.0.1:\(server.port)/?code=12345678")
        let tab = SessionRecorder(session: registry.session(for: tabSource), displaySize: PixelSize(width: 640, height: 360))
        let mini = SessionRecorder(session: registry.session(for: miniSource), displaySize: PixelSize(width: 320, height: 180))
        defer { registry.session(for: tabSource).stop() }
        XCTAssertTrue(tab.consumer.session === mini.consumer.session)
        XCTAssertNotNil(tab.waitForFrames(3, timeout: 10), "states: \(tab.states)")
        XCTAssertNotNil(mini.waitForFrames(3, timeout: 10), "states: \(mini.states)")
        XCTAssertEqual(mini.lastFrame.map { PixelSize(width: $0.width, height: $0.height) }, PixelSize(width: 640, height: 360))
        XCTAssertEqual(server.events(named: "client").count, 1, "the printer must see exactly one client")
    }

    func testStopWhileStreamingReturnsWithinAQuarterSecond() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py")
        let session = StreamSession(source: try source(server))
        let recorder = SessionRecorder(session: session)
        XCTAssertNotNil(recorder.waitForFrames(2, timeout: 10), "states: \(recorder.states)")
        XCTAssertFalse(recorder.wait(timeout: 0.4) { _, frames in frames > 2 }, "the session now waits inside a read")
        let began = Date()
        session.stop()
        XCTAssertLessThan(Date().timeIntervalSince(began), 0.25, "stop() while waiting for the next frame")
        XCTAssertEqual(session.state, .stopped)
        XCTAssertTrue(waitUntil(timeout: 2) { ThreadCensus.count(prefix: StreamSession.workerThreadName) == 0 }, "no session thread left behind")
        XCTAssertNotNil(server.waitFor("client-closed", timeout: 3), "the printer's connection is closed")
    }
}
