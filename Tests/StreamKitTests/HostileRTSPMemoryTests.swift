import StreamKit
import TestSupport
import XCTest

/// RTSP cameras that try to make FFmpeg's own RTSP client and H.264 parser buffer without end,
/// against a real loopback peer: a DESCRIBE reply announcing 2 GB, and one frame that never ends.
/// FFmpeg 5.1 has no option for either; the process-wide allocation limit stops both.
final class HostileRTSPMemoryTests: XCTestCase {
    /// The first failure of a session on `mode`, how long it took and how much the process grew.
    private func firstFailure(mode: String) throws -> (failure: StreamFailure?, seconds: TimeInterval, grewBy: Int) {
        let server = try TestServer(script: "hostile_rtsp_server.py", arguments: ["--mode", mode])
        var options = SessionOptions()
        options.backoff = Backoff(initial: 5, maximum: 5, jitter: 0)
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/live"), options: options)
        let before = ProcessMemory.residentBytes ?? 0
        var peak = before
        let started = Date()
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        var failure: StreamFailure?
        while failure == nil, Date().timeIntervalSince(started) < 10 {
            peak = max(peak, ProcessMemory.residentBytes ?? 0)
            failure = recorder.states.lazy.compactMap(\.failure).first
            usleep(20_000)
        }
        return (failure, Date().timeIntervalSince(started), peak - before)
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
