import StreamKit
import TestSupport
import XCTest

/// What goes wrong with Bambu P1/A1 cameras, against the real loopback imitation: a wrong access
/// code, an absurd frame size, garbage, a frame cut short. The access code never shows in any text.
final class BambuJPEGFailureTests: XCTestCase {
    private let code = "S3CRET42"

    private func fastRetry() -> SessionOptions {
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 1, jitter: 0)
        return options
    }

    private func start(_ arguments: [String], code typed: String? = nil) throws -> (TestServer, StreamSession, SessionRecorder) {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--password", code] + arguments)
        let source = try StreamSource.parse("bambu-jpeg://127.0.0.1:\(server.port)?code=\(typed ?? code)")
        let session = StreamSession(source: source, options: fastRetry())
        return (server, session, SessionRecorder(session: session))
    }

    /// Every text a user or a log could see about `session`.
    private func visibleText(_ session: StreamSession, _ recorder: SessionRecorder) -> String {
        let failures = recorder.states.compactMap(\.failure).map(\.userMessage)
        return ([session.source.description] + recorder.states.map { "\($0)" } + failures).joined(separator: "\n")
    }

    func testWrongAccessCodeIsRejectedOnceAndNeverRetried() throws {
        let (server, session, recorder) = try start([], code: "WRONG999")
        defer { session.stop() }
        XCTAssertEqual(recorder.waitForState(timeout: 10) { $0.isFailed }, .failed(.authRejected), "states: \(recorder.states)")
        // With a 0.2 s backoff a retry would have happened several times over in this window.
        XCTAssertFalse(recorder.wait(timeout: 1.5) { states, _ in states.contains { $0.isReconnecting } })
        XCTAssertEqual(server.events(named: "client").count, 1, "no retry storm against the printer")
        XCTAssertEqual(server.events(named: "auth").first?.fields["ok"] as? Bool, false)
        XCTAssertFalse(visibleText(session, recorder).contains("WRONG999"), visibleText(session, recorder))
    }

    func testHangingUpBeforeTheAccessCodeIsRefusedAndRetried() throws {
        let server = try TestServer(script: "silent_server.py", arguments: ["--close-after-accept"])
        let session = StreamSession(source: try StreamSource.parse("bambu-jpeg://127.0.0.1:\(server.port)?code=\(code)"),
                                    options: fastRetry())
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let reconnecting = recorder.waitForState(timeout: 5) { $0.isReconnecting || $0.isFailed }
        XCTAssertEqual(reconnecting?.failure, .refused, "not a wrong code: none was sent; states: \(recorder.states)")
        XCTAssertEqual(reconnecting?.isReconnecting, true)
    }

    func testProbeWithWrongAccessCodeReportsItWithoutTheCode() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--password", code])
        let report = StreamProbe.run(source: try StreamSource.parse("bambu-jpeg://127.0.0.1:\(server.port)?code=WRONG999"),
                                     frames: 3, timeout: 10)
        XCTAssertEqual(report.error?.kind, "authRejected")
        XCTAssertEqual(report.url, "bambu-jpeg://127.0.0.1:\(server.port)?code=***")
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        XCTAssertFalse(json.contains("WRONG999"), json)
    }

    func testOversizeFrameIsAProtocolErrorAndIsNeverAllocated() throws {
        let (server, session, recorder) = try start(["--mode", "oversize", "--frames", "1"])
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(1, timeout: 10), "states: \(recorder.states)")
        let firstFrameAt = Date()
        let residentBefore = try XCTUnwrap(ProcessMemory.residentBytes)
        let reconnecting = recorder.waitForState(timeout: 10) { $0.isReconnecting }
        let residentAfter = try XCTUnwrap(ProcessMemory.residentBytes)
        guard case .protocolError(let detail) = reconnecting?.failure else {
            return XCTFail("a 100 MiB header must be a protocol error, got \(String(describing: reconnecting))")
        }
        XCTAssertTrue(detail.contains("104857600"), detail)
        // The header follows the first frame by one frame interval (1 s); a reader that allocated the
        // frame and waited for its bytes would sit there until the 4 s stall deadline.
        XCTAssertLessThan(Date().timeIntervalSince(firstFrameAt), 2.5)
        XCTAssertLessThan(residentAfter - residentBefore, 32 << 20, "100 MiB must not have been allocated and filled")
        XCTAssertNotNil(server.waitFor("client", timeout: 5) { $0.int("total") == 2 }, "it reconnects")
        XCTAssertFalse(visibleText(session, recorder).contains(code))
    }

    func testGarbageIsAProtocolErrorAndIsRetried() throws {
        let (server, session, recorder) = try start(["--mode", "garbage"])
        defer { session.stop() }
        let reconnecting = recorder.waitForState(timeout: 10) { $0.isReconnecting }
        guard case .protocolError = reconnecting?.failure else {
            return XCTFail("garbage must be a protocol error, got \(String(describing: reconnecting)); states: \(recorder.states)")
        }
        XCTAssertNotNil(server.waitFor("client", timeout: 5) { $0.int("total") == 2 }, "it reconnects")
        XCTAssertEqual(recorder.frameCount, 0)
        XCTAssertFalse(visibleText(session, recorder).contains(code))
    }

    func testTruncatedFrameReconnectsAndGoesLiveAgain() throws {
        let (server, session, recorder) = try start(["--mode", "truncate", "--frames", "2", "--fps", "5"])
        defer { session.stop() }
        let reconnecting = recorder.waitForState(timeout: 10) { $0.isReconnecting }
        guard case .protocolError(let detail) = reconnecting?.failure else {
            return XCTFail("a cut frame must be a protocol error, got \(String(describing: reconnecting))")
        }
        XCTAssertTrue(detail.contains("5495 of 10990 bytes"), detail)
        XCTAssertTrue(recorder.wait(timeout: 10) { states, frames in frames >= 3 && states.last == .live },
                      "states: \(recorder.states)")
        XCTAssertGreaterThanOrEqual(server.events(named: "client").count, 2)
        XCTAssertFalse(visibleText(session, recorder).contains(code))
    }
}
