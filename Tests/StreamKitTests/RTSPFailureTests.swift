import StreamKit
import TestSupport
import XCTest

/// What goes wrong with printers, against real peers: wrong access code, nothing listening, a host
/// that accepts and stays silent, a server that dies mid-stream and comes back.
final class RTSPFailureTests: XCTestCase {
    private func fastRetry() -> SessionOptions {
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 1, jitter: 0)
        return options
    }

    func testWrongAccessCodeIsRejectedAndNotRetried() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--tls", "--user", "bblp", "--password", "12345678"])
        let source = try StreamSource.parse("rtsps://bblp:WRONG999@127.0.0.1:\(server.port)/streaming/live/1")
        let session = StreamSession(source: source, options: fastRetry())
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let failed = recorder.waitForState(timeout: 10) { $0.isFailed }
        XCTAssertEqual(failed, .failed(.authRejected), "states: \(recorder.states)")
        let connections = server.events(named: "client").count
        // With a 0.2 s backoff a retry would have happened several times over in this window.
        XCTAssertFalse(recorder.wait(timeout: 1.5) { states, _ in states.contains { $0.isReconnecting } })
        XCTAssertEqual(server.events(named: "client").count, connections, "no retry storm against the printer")
        XCTAssertFalse(recorder.states.map { "\($0)" }.joined().contains("WRONG999"))
    }

    func testAnRTSPErrorStatusIsToldInLayerwatchsWordsNotFFmpegs() throws {
        let server = try TestServer(script: "hostile_reason_server.py", arguments: ["--protocol", "rtsp"])
        let result = try FirstFailure { StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/live"), options: fastRetry()) }
        XCTAssertEqual(result.failure, .protocolError("it refused the request (4xx)"), "DESCRIBE answered 400")
        let message = try XCTUnwrap(result.failure?.userMessage)
        XCTAssertFalse(message.contains("Server returned"), message)
    }

    func testRefusedPort() throws {
        let port = closedLoopbackPort()
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(port)/live"), options: fastRetry())
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let reconnecting = recorder.waitForState(timeout: 5) { $0.isReconnecting }
        XCTAssertEqual(reconnecting?.failure, .refused, "states: \(recorder.states)")
    }

    func testSilentHostTimesOutWithinSixSeconds() throws {
        let server = try TestServer(script: "silent_server.py", interpreter: "/usr/bin/python3")
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        let started = Date()
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let reconnecting = recorder.waitForState(timeout: 10) { $0.isReconnecting }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(reconnecting?.failure, .timeout, "states: \(recorder.states)")
        XCTAssertLessThan(elapsed, 6)
        XCTAssertNotNil(server.waitFor("accepted", timeout: 1), "the host did accept the connection")
    }

    func testServerKilledMidStreamReconnectsAndGoesLiveAgain() throws {
        var server = try TestServer(script: "rtsp_server.py")
        let port = server.port
        var options = fastRetry()
        options.stallTimeout = 2
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(port)/streaming/live/1"), options: options)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(3, timeout: 15))
        server.kill9()
        XCTAssertNotNil(recorder.waitForState(timeout: 6) { $0.isReconnecting }, "states: \(recorder.states)")
        server = try TestServer(script: "rtsp_server.py", arguments: ["--port", "\(port)"])
        let framesBefore = recorder.frameCount
        XCTAssertTrue(recorder.wait(timeout: 20) { states, frames in
            frames > framesBefore && states.last == .live
        }, "states: \(recorder.states)")
        SMPTEBars.assertBars(in: try XCTUnwrap(recorder.lastFrame), intensity: .gstreamer)
    }

    func testStalledStreamIsDetectedWithinFiveSecondsAndReconnected() throws {
        let server = try TestServer(script: "rtsp_server.py")
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 1, jitter: 0)
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"), options: options)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(3, timeout: 15))
        server.freeze()
        let frozenAt = Date()
        let stalled = recorder.waitForState(timeout: 8) { $0.isReconnecting }
        XCTAssertEqual(stalled?.failure, .timeout, "states: \(recorder.states)")
        XCTAssertLessThan(Date().timeIntervalSince(frozenAt), 5.6, "a 5 s stall is noticed on time")
        server.thaw()
        let framesBefore = recorder.frameCount
        XCTAssertTrue(recorder.wait(timeout: 15) { states, frames in frames > framesBefore && states.last == .live },
                      "states: \(recorder.states)")
    }

    func testStopReturnsQuicklyWhileConnectingAndWhileStreaming() throws {
        let silent = try TestServer(script: "silent_server.py", interpreter: "/usr/bin/python3")
        let connecting = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(silent.port)/live"))
        let waiting = SessionRecorder(session: connecting)
        XCTAssertNotNil(silent.waitFor("accepted", timeout: 5))
        // The state comes through the recorder's queue: the server may see the connection first.
        XCTAssertTrue(waiting.wait(timeout: 2) { states, _ in states.last == .connecting }, "states: \(waiting.states)")
        var began = Date()
        connecting.stop()
        XCTAssertLessThan(Date().timeIntervalSince(began), 0.25, "stop() while connecting")
        XCTAssertEqual(connecting.state, .stopped)

        let server = try TestServer(script: "rtsp_server.py")
        let streaming = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        let watching = SessionRecorder(session: streaming)
        XCTAssertNotNil(watching.waitForFrames(3, timeout: 15))
        began = Date()
        streaming.stop()
        XCTAssertLessThan(Date().timeIntervalSince(began), 0.25, "stop() while streaming")
        XCTAssertTrue(waitUntil(timeout: 2) { ThreadCensus.count(prefix: StreamSession.workerThreadName) == 0 }, "no session thread left behind")
        let framesAfterStop = watching.frameCount
        XCTAssertFalse(watching.wait(timeout: 0.5) { _, frames in frames > framesAfterStop + 1 })
    }
}

/// A camera that accepts and hangs up at once (a one-client printer busy with another app) is not a
/// wrong access code: it is retried.
final class RTSPHangUpTests: XCTestCase {
    func testHangUpRightAfterAcceptIsRetriedNotAnAuthFailure() throws {
        let server = try TestServer(script: "silent_server.py", arguments: ["--close-after-accept"], interpreter: "/usr/bin/python3")
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 1, jitter: 0)
        let session = StreamSession(source: try StreamSource.parse("rtsps://bblp:12345678@127.0.0.1:\(server.port)/streaming/live/1"),
                                    options: options)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let reconnecting = recorder.waitForState(timeout: 10) { $0.isReconnecting }
        guard case .protocolError(let detail)? = reconnecting?.failure else {
            return XCTFail("expected a retried protocol error, got \(recorder.states)")
        }
        XCTAssertTrue(detail.contains("another app"), detail)
        XCTAssertNotNil(server.waitFor("accepted", timeout: 5) { ($0.int("total") ?? 0) >= 2 }, "it tried again")
    }
}
