import StreamKit
import TestSupport
import XCTest

/// An MJPEG camera whose Content-Type names its boundary with RFC 2046's dashes already in it
/// (`boundary=--foo`, an Elegoo Centauri Carbon's, Tests/Servers/elegoo_sdcp_server.py): its part
/// lines read whether they start `--foo` (as the header says) or `----foo` (as the RFC would make
/// of it), with or without a Content-Length.
final class MalformedBoundaryTests: XCTestCase {
    func testEitherReadingOfADashedBoundaryDecodes() throws {
        for (lines, length) in [("--foo", true), ("----foo", true), ("--foo", false), ("----foo", false)] {
            let camera = try TestServer(script: "elegoo_sdcp_server.py",
                                        arguments: ["--video-on", "--fps", "20", "--body-boundary=\(lines)"] + (length ? [] : ["--no-length"]))
            defer { camera.stop() }
            let port = try XCTUnwrap(camera.events(named: "ready").first?.int("camera_port"))
            let session = StreamSession(source: try StreamSource.parse("http://127.0.0.1:\(port)/video"))
            let recorder = SessionRecorder(session: session)
            defer { session.stop() }
            let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 10), "\(lines), length \(length): \(recorder.states)")
            XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 640, height: 360))
            SMPTEBars.assertBars(in: frame, intensity: .ffmpeg)
            XCTAssertFalse(recorder.states.contains { $0.isFailed }, "\(lines), length \(length): \(recorder.states)")
        }
    }
}
