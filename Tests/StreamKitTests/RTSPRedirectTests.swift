import StreamKit
import TestSupport
import XCTest

/// RTSP cameras that redirect: FFmpeg's client follows 301/302 by itself and would send the typed
/// credentials to the new address, without a limit. Against a real loopback server that answers
/// 302 after Basic auth, and a second "host" that records what reaches it.
final class RTSPRedirectTests: XCTestCase {
    private let password = "S3CRET42"

    private func session(_ url: String) throws -> (StreamSession, SessionRecorder) {
        var options = SessionOptions()
        options.backoff = Backoff(initial: 1, maximum: 30, jitter: 0)
        let session = StreamSession(source: try StreamSource.parse(url), options: options)
        return (session, SessionRecorder(session: session))
    }

    private func assertRedirectToAnotherPortSendsNothingThere(tls: Bool) throws {
        let other = try TestServer(script: "sink_server.py")
        let scheme = tls ? "rtsps" : "rtsp"
        let server = try TestServer(script: "hostile_rtsp_server.py", arguments:
            ["--mode", "redirect", "--user", "bblp", "--password", password,
             "--location", "\(scheme)://127.0.0.1:\(other.port)/streaming/live/1"] + (tls ? ["--tls"] : []))
        let started = Date()
        let (session, recorder) = try session("\(scheme)://bblp:\(password)@127.0.0.1:\(server.port)/streaming/live/1")
        defer { session.stop() }
        let failed = recorder.waitForState(timeout: 10) { $0.failure != nil }
        guard case .protocolError(let detail)? = failed?.failure else {
            return XCTFail("expected a protocol error, states: \(recorder.states)")
        }
        XCTAssertTrue(detail.contains("another address (\(scheme)://127.0.0.1:\(other.port))"), detail)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertTrue(waitUntil(timeout: 2) { server.events(named: "request").contains { $0.fields["authorized"] as? Bool == true } },
                      "the typed host did get the credentials")
        // Give a reconnect time to happen: with the 1 s backoff there is exactly one more attempt.
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertTrue(other.events(named: "data").isEmpty, "not a byte (no request, no credentials) reached the other port")
        // FFmpeg opens the TCP connection before it consults the interrupt callback: the other port
        // may see one connection per attempt, closed without a byte.
        XCTAssertLessThanOrEqual(other.events(named: "accepted").count, 2)
        XCTAssertLessThanOrEqual(server.events(named: "client").count, 2, "one connection per attempt, with backoff")
        XCTAssertFalse(recorder.states.map { "\($0) \($0.failure?.userMessage ?? "")" }.joined().contains(password))
    }

    func testRedirectToAnotherPortAfterBasicAuthSendsNothingThere() throws {
        try assertRedirectToAnotherPortSendsNothingThere(tls: false)
    }

    func testRTSPSRedirectToAnotherPortAfterBasicAuthSendsNothingThere() throws {
        try assertRedirectToAnotherPortSendsNothingThere(tls: true)
    }

    func testRedirectLoopStopsAfterAFewAndBacksOff() throws {
        let server = try TestServer(script: "hostile_rtsp_server.py", arguments: ["--mode", "redirect-loop"])
        let started = Date()
        let (session, recorder) = try session("rtsp://127.0.0.1:\(server.port)/loop/0")
        defer { session.stop() }
        let failed = recorder.waitForState(timeout: 10) { $0.failure != nil }
        guard case .protocolError(let detail)? = failed?.failure else {
            return XCTFail("expected a protocol error, states: \(recorder.states)")
        }
        XCTAssertTrue(detail.contains("more than 3 times"), detail)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        // The first request and three redirects; FFmpeg's TCP connect to a fourth target happens before it
        // consults the interrupt callback, but no request goes over it.
        // The server's events come through a pipe: the last may still be on its way.
        _ = waitUntil(timeout: 0.5) { server.events(named: "request").count >= 4 }
        XCTAssertEqual(server.events(named: "request").count, 4, "the first attempt follows 3 redirects")
        XCTAssertLessThanOrEqual(server.events(named: "client").count, 5)
        // Backoff 1 s, then 2 s: at most two more attempts of four connections in the next 2.5 s.
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertLessThanOrEqual(server.events(named: "request").count, 12, "no redirect storm")
        let attempts = recorder.reconnectAttempts
        XCTAssertFalse(attempts.isEmpty, "the failed attempt is followed by a reconnect: \(recorder.states)")
        XCTAssertEqual(attempts, attempts.indices.map { $0 + 1 }, "a failing attempt never resets the backoff")
    }

    func testARedirectToTheSameURLCountsAndStopsAtTheLimit() throws {
        let server = try TestServer(script: "hostile_rtsp_server.py", arguments: ["--mode", "redirect-self"])
        let (session, recorder) = try session("rtsp://127.0.0.1:\(server.port)/self")
        defer { session.stop() }
        let failed = recorder.waitForState(timeout: 10) { $0.failure != nil }
        guard case .protocolError(let detail)? = failed?.failure else {
            return XCTFail("expected a protocol error, states: \(recorder.states)")
        }
        XCTAssertTrue(detail.contains("more than 3 times"), detail)
        _ = waitUntil(timeout: 0.5) { server.events(named: "request").count >= 4 }
        XCTAssertEqual(server.events(named: "request").count, 4, "the first request and three redirects to itself")
        // With the 1 s backoff, then 2 s: a few more attempts in 5 s, not hundreds.
        Thread.sleep(forTimeInterval: 5)
        XCTAssertLessThanOrEqual(server.events(named: "request").count, 16, "no redirect storm")
    }
}
