import StreamKit
import TestSupport
import XCTest

/// RTSP cameras that try to make FFmpeg's own RTSP client and H.264 parser buffer without end,
/// against a real loopback peer: a DESCRIBE reply announcing 2 GB, and one frame that never ends.
/// FFmpeg 5.1 has no option for either; the process-wide allocation limit stops both.
final class HostileRTSPMemoryTests: XCTestCase {
    /// The first failure of a session against the server in `mode`.
    private func firstFailure(mode: String) throws -> FirstFailure {
        let server = try TestServer(script: "hostile_rtsp_server.py", arguments: ["--mode", mode])
        var options = SessionOptions()
        options.backoff = Backoff(initial: 5, maximum: 5, jitter: 0)
        return try FirstFailure {
            StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/live"), options: options)
        }
    }

    func testADescribeReplyAnnouncingTwoGigabytesIsRefusedAtOnce() throws {
        let result = try firstFailure(mode: "huge-describe")
        XCTAssertNotNil(result.failure)
        XCTAssertLessThan(result.seconds, 3, "refused at once, not after the 5 s deadline: \(String(describing: result.failure))")
        XCTAssertLessThan(result.grewBy, 200 << 20, "memory stays bounded (was 1.9 GB)")
    }

    func testAFrameThatNeverEndsStopsAtTheAllocationLimit() throws {
        let result = try firstFailure(mode: "endless-frame")
        XCTAssertNotNil(result.failure)
        XCTAssertLessThan(result.grewBy, 512 << 20, "memory stays bounded (was 2.1 GB): \(String(describing: result.failure))")
    }
}
