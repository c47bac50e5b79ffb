import StreamKit
import TestSupport
import XCTest

/// Cameras whose pictures arrive but cannot be decoded — an H.264 SPS declaring 8192×8192 or
/// 16000×16000, a 60000×60000 JPEG, P1 payloads that start and end like JPEGs with garbage between —
/// must say so quickly instead of looking silent ("did not answer in time") or ended.
final class UndecodablePictureTests: XCTestCase {
    private func options() -> SessionOptions {
        var options = SessionOptions()
        options.backoff = Backoff(initial: 5, maximum: 5, jitter: 0)
        return options
    }

    /// The first failure of `url`, and how long it took.
    private func firstFailure(_ url: String, timeout: TimeInterval = 10) throws -> (StreamFailure?, TimeInterval) {
        let started = Date()
        let session = StreamSession(source: try StreamSource.parse(url), options: options())
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let failed = recorder.waitForState(timeout: timeout) { $0.failure != nil }
        XCTAssertEqual(recorder.frameCount, 0)
        return (failed?.failure, Date().timeIntervalSince(started))
    }

    private func assertOversizedH264(width: Int, height: Int) throws {
        let server = try TestServer(script: "hostile_rtsp_server.py",
                                    arguments: ["--mode", "huge-sps", "--width", "\(width)", "--height", "\(height)"])
        let (failure, seconds) = try firstFailure("rtsp://127.0.0.1:\(server.port)/streaming/live/1")
        XCTAssertEqual(failure, .undecodablePicture("it is \(width)×\(height) pixels, more than the 7680×4320 Layerwatch decodes"))
        XCTAssertEqual(failure?.isRetryable, true, "backs off like a protocol error")
        XCTAssertLessThan(seconds, 4, "named before the 5 s connect deadline")
        XCTAssertTrue(failure?.userMessage.hasPrefix("The camera sends a picture Layerwatch cannot decode: it is") == true)
    }

    func testH264WithAn8192SquareSPSIsNamedUndecodable() throws {
        try assertOversizedH264(width: 8192, height: 8192)
    }

    func testH264WithA16000SquareSPSIsNamedUndecodable() throws {
        try assertOversizedH264(width: 16000, height: 16000)
    }

    func testGiantJPEGSnapshotIsNamedUndecodable() throws {
        let server = try TestServer(script: "hostile_http_server.py")
        let (failure, seconds) = try firstFailure("http://127.0.0.1:\(server.port)/giant-snapshot")
        XCTAssertEqual(failure, .undecodablePicture("it is 60000×60000 pixels, more than the 7680×4320 Layerwatch decodes"))
        XCTAssertLessThan(seconds, 3)
    }

    func testGiantJPEGStreamIsNamedUndecodable() throws {
        let server = try TestServer(script: "hostile_http_server.py")
        let (failure, seconds) = try firstFailure("http://127.0.0.1:\(server.port)/giant-stream")
        XCTAssertEqual(failure, .undecodablePicture("it is 60000×60000 pixels, more than the 7680×4320 Layerwatch decodes"))
        XCTAssertLessThan(seconds, 3)
    }

    func testGarbageJPEGsOverHTTPAreNamedUndecodable() throws {
        let server = try TestServer(script: "hostile_http_server.py")
        let (failure, seconds) = try firstFailure("http://127.0.0.1:\(server.port)/bad-jpeg-stream")
        XCTAssertEqual(failure, .undecodablePicture("the picture data is damaged"), "in Layerwatch's words, not the decoder's")
        XCTAssertLessThan(seconds, 3)
    }

    func testP1GarbageBetweenJPEGMarkersIsNamedUndecodable() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--password", "S3CRET42", "--mode", "bad-jpeg"])
        let (failure, seconds) = try firstFailure("bambu-jpeg://127.0.0.1:\(server.port)?code=S3CRET42")
        guard case .undecodablePicture(let detail)? = failure else { return XCTFail("got \(String(describing: failure))") }
        XCTAssertFalse(detail.contains("S3CRET42"))
        XCTAssertLessThan(seconds, 4.5, "three rejected frames at one a second, before the stall deadline")
    }
}
