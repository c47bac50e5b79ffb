import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Prusa printer's status through PrusaLink against a fake printer speaking its HTTP API with
/// Digest login (Tests/Servers/prusalink_server.py): the status and job decoded, the states mapped,
/// the login (a stale nonce retried once, a wrong password asked once), the job commands and the
/// printer's refusals, the thumbnail, and hostile answers refused with a clear failure.
final class PrusaLinkConnectionTests: XCTestCase {
    private static let password = "Pr1ntPass"

    private func printer(_ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: "prusalink_server.py", arguments: ["--password", Self.password] + arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    private func recorder(_ server: TestServer, password: String = password) -> StatusRecorder {
        StatusRecorder(.prusaLink(host: "127.0.0.1", port: server.port, password: password))
    }

    private func set(_ server: TestServer, printer: [String: Any] = [:], job: Any? = nil, file: StaticString = #filePath, line: UInt = #line) {
        var command: [String: Any] = ["cmd": "set", "printer": printer]
        if let job { command["job"] = job }
        XCTAssertEqual(server.perform(command)?.name, "done", file: file, line: line)
    }

    private func requests(_ server: TestServer) -> [TestServer.Event] { server.events(named: "request") }

    func testStatusJobAndThumbnailAreDecodedOverDigest() throws {
        let server = try printer()
        let recorder = recorder(server)
        let idle = try XCTUnwrap(recorder.awaitStatus(10, "idle with its heaters") { $0.state == .idle && $0.bed != nil })
        XCTAssertEqual(idle.nozzles, [.init(current: 24, target: 0)!])
        XCTAssertEqual(idle.bed, .init(current: 23.8, target: 0))
        XCTAssertNil(idle.job)

        XCTAssertEqual(server.perform(["cmd": "thumbnail", "width": 120, "height": 90])?.name, "done")
        set(server, printer: ["state": "PRINTING", "temp_nozzle": 214.6, "target_nozzle": 215, "temp_bed": 59.9, "target_bed": 60],
            job: ["id": 42, "progress": 37, "time_remaining": 2520, "time_printing": 1500,
                  "file": ["name": "CLIP~1.BGC", "display_name": "clip <b>PETG</b>.bgcode"]])
        let printing = try XCTUnwrap(recorder.awaitStatus(10, "printing with its thumbnail") { $0.state == .printing && $0.thumbnail != nil })
        XCTAssertEqual(printing.job, "clip <b>PETG</b>.bgcode", "the long name, markup kept as text")
        XCTAssertEqual(printing.progress, 37)
        XCTAssertEqual(printing.timeLeft, 2520)
        XCTAssertEqual(printing.elapsed, 1500)
        XCTAssertEqual(printing.nozzles, [.init(current: 214.6, target: 215)!])
        XCTAssertEqual(printing.bed, .init(current: 59.9, target: 60))
        XCTAssertEqual(printing.thumbnail?.job, "clip <b>PETG</b>.bgcode")
        XCTAssertEqual(printing.thumbnail?.pictureSize?.width, 120)
        XCTAssertEqual(printing.thumbnail?.pictureSize?.height, 90)
        XCTAssertTrue(requests(server).contains { $0.string("path") == "/thumb/l/usb/CLIP~1.BGC" && $0.fields["authorized"] as? Bool == true })

        // Digest: one challenge at first, then every request answers the nonce at once.
        let all = requests(server)
        XCTAssertEqual(all.filter { $0.fields["authorized"] as? Bool == false }.count, 1, "\(all.map(\.fields))")
        XCTAssertTrue(all.dropFirst().allSatisfy { $0.string("auth") == "digest" }, "\(all.map(\.fields))")
        let before = requests(server).filter { $0.string("path") == "/api/v1/status" }.count
        Thread.sleep(forTimeInterval: 5)
        let polls = requests(server).filter { $0.string("path") == "/api/v1/status" }.count - before
        XCTAssertTrue((2...4).contains(polls), "\(polls) polls in 5 s: one every 2 s was expected")
    }

    func testEveryStateIsMappedAndAttentionAsksForTheUser() throws {
        let server = try printer()
        let recorder = recorder(server)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        set(server, printer: ["state": "PRINTING"], job: ["id": 3, "progress": 10])
        let expected: [(String, PrinterStatus.State)] = [("BUSY", .preparing), ("PAUSED", .paused), ("PRINTING", .printing),
                                                         ("FINISHED", .finished), ("STOPPED", .cancelled), ("READY", .idle),
                                                         ("ERROR", .failed)]
        for (text, state) in expected {
            let mark = recorder.all.count
            set(server, printer: ["state": text])
            let seen = recorder.awaitStatus(10, text, from: mark) { $0.state == state }
            if state == .failed {
                XCTAssertEqual(seen?.errorText, "The printer reports an error — see its screen.")
            } else {
                XCTAssertNil(seen?.errorText, text)
            }
        }
        let mark = recorder.all.count
        set(server, printer: ["state": "ATTENTION", "status_printer": ["ok": false, "message": "Filament runout\nsecond line"]])
        let attention = try XCTUnwrap(recorder.awaitStatus(10, "attention", from: mark) { $0.state == .paused })
        XCTAssertEqual(attention.errorText, "The printer needs you: Filament runout — see its screen.")
        let events = PrintEvent.changes(from: PrintMark(state: .printing, job: attention.job, alerts: []), to: attention).events
        XCTAssertEqual(events, [.paused], "it is notified as a pause that wants the user, not as a failure")
    }

    func testAStaleNonceIsRetriedOnceAndStaysLive() throws {
        let server = try printer()
        let recorder = recorder(server)
        recorder.awaitStatus(10, "live") { $0.state == .idle }
        XCTAssertEqual(server.perform(["cmd": "expire"])?.name, "done")
        XCTAssertNotNil(server.waitFor("request", timeout: 5) { $0.fields["stale"] as? Bool == true }, "the old nonce came back stale")
        let staleIndex = try XCTUnwrap(requests(server).firstIndex { $0.fields["stale"] as? Bool == true })
        let deadline = Date().addingTimeInterval(5)
        while requests(server).count <= staleIndex + 1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let retry = try XCTUnwrap(requests(server).dropFirst(staleIndex + 1).first, "a request after the stale one")
        XCTAssertEqual(retry.fields["authorized"] as? Bool, true, "retried at once with the new nonce")
        XCTAssertEqual(retry.string("path"), requests(server)[staleIndex].string("path"))
        XCTAssertFalse(recorder.all.contains { $0.failure != nil }, "\(recorder.all)")
    }

    func testAWrongPasswordIsAskedOnceAndNeverShown() throws {
        let server = try printer()
        let logged = LogLines()
        StreamLog.handler = { _, line in logged.append(line) }
        defer { StreamLog.handler = nil }
        let recorder = recorder(server, password: "WrongPass9")
        let failed = recorder.expect(10, "authRejected") { $0.connection == .failed(.authRejected, retryIn: nil) }
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(requests(server).count, 2, "the challenge, then one answer: a wrong password is not retried")
        XCTAssertEqual(requests(server).last?.string("auth"), "digest")
        XCTAssertEqual(failed?.failure?.userMessage, StatusFailure.authRejected.userMessage)
        let endpoint = StatusEndpoint.prusaLink(host: "127.0.0.1", port: server.port, password: "WrongPass9")
        let shown = logged.lines + [endpoint.description] + recorder.all.map { "\($0)" }
        XCTAssertFalse(shown.contains { $0.contains("WrongPass9") }, "\(shown)")
    }

    /// Older firmware offers no Digest login: the password goes as X-Api-Key, once asked for.
    func testAPrusaLinkWithoutDigestGetsThePasswordAsItsKey() throws {
        let server = try printer(["--no-digest"])
        let recorder = recorder(server)
        recorder.awaitStatus(10, "live over X-Api-Key") { $0.state == .idle && $0.bed != nil }
        let all = requests(server)
        XCTAssertEqual(all.first?.fields["authorized"] as? Bool, false)
        XCTAssertTrue(all.dropFirst().allSatisfy { $0.string("auth") == "apikey" && $0.fields["authorized"] as? Bool == true }, "\(all.map(\.fields))")

        let wrongServer = try printer(["--no-digest"])
        let wrong = self.recorder(wrongServer, password: "WrongPass9")
        wrong.expect(10, "authRejected") { $0.connection == .failed(.authRejected, retryIn: nil) }
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(requests(wrongServer).count, 2, "asked, then the key once: not retried")
    }

    func testJobCommandsAndThePrintersRefusals() throws {
        let server = try printer()
        let recorder = recorder(server)
        set(server, printer: ["state": "PRINTING"], job: ["id": 7, "progress": 20])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(recorder.send(.pause), .done)
        recorder.awaitStatus(10, "paused") { $0.state == .paused }
        XCTAssertEqual(recorder.send(.pause), .refused("PrusaLink can pause only a print that is printing"), "409 in words")
        let beforeResume = recorder.all.count
        XCTAssertEqual(recorder.send(.resume), .done)
        recorder.awaitStatus(10, "printing again", from: beforeResume) { $0.state == .printing }
        XCTAssertEqual(recorder.send(.resume), .refused("PrusaLink can resume only a paused print"), "409 in words")
        XCTAssertEqual(recorder.send(.stop), .done)
        let stopped = recorder.awaitStatus(10, "stopped") { $0.state == .cancelled }
        XCTAssertNil(stopped?.errorText, "a stop is no error")
        let commands = requests(server).filter { $0.string("method") != "GET" }
        XCTAssertEqual(commands.filter { $0.fields["authorized"] as? Bool == true }.map { "\($0.string("method")!) \($0.string("path")!)" },
                       ["PUT /api/v1/job/7/pause", "PUT /api/v1/job/7/pause", "PUT /api/v1/job/7/resume", "PUT /api/v1/job/7/resume",
                        "DELETE /api/v1/job/7"])
        guard case .refused? = recorder.send(.speed(.sport)) else { return XCTFail("PrusaLink has no speed profiles") }

        // The job the printer had is gone (another began) between a poll and the command: 404, in words.
        let connection = PrusaLinkConnection(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, password: Self.password)
        let stop = StopSignal()
        let polled = DispatchSemaphore(value: 0)
        Thread.detachNewThread { try? connection.run(stop: stop, live: {}, report: { _ in polled.signal() }) }
        defer { stop.stop() }
        XCTAssertEqual(polled.wait(timeout: .now() + 10), .success)
        set(server, printer: ["state": "PRINTING"], job: ["id": 8])
        let answered = DispatchSemaphore(value: 0)
        let outcome = OutcomeHolder()
        connection.send(.pause) { outcome.value = $0; answered.signal() }
        XCTAssertEqual(answered.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(outcome.value, .refused("PrusaLink no longer has that print: it has ended"))
    }

    func testHostileAnswersAreBoundedOrRefusedClearly() throws {
        let server = try printer()
        let recorder = recorder(server)
        recorder.awaitStatus(10, "live") { $0.state == .idle }
        set(server, printer: ["state": "PRINTING", "temp_nozzle": "NaN", "target_nozzle": 1e308, "temp_bed": -1e300, "target_bed": "inf"],
            job: ["id": 1e15, "progress": 1e308, "time_remaining": -5])
        let odd = try XCTUnwrap(recorder.awaitStatus(10, "printing with nonsense numbers") { $0.state == .printing })
        XCTAssertEqual(odd.nozzles, [], "no plausible nozzle reading")
        XCTAssertNil(odd.bed)
        XCTAssertNil(odd.job, "a job id out of range is no job")
        XCTAssertNil(odd.progress)

        var nested: Any = ["deep": true]
        for _ in 0..<200 { nested = ["n": nested] }
        set(server, printer: ["nested": nested])
        recorder.expect(10, "a nesting refused") { update in
            guard case .protocolError(let detail) = update.failure else { return false }
            return detail.contains("nested more than 64 levels")
        }
        set(server, printer: ["nested": NSNull()])
        for (mode, expected) in [("garbage", "not JSON"), ("huge", "larger than 10 MB"), ("huge_chunked", "larger than 10 MB")] {
            let mark = recorder.all.count
            XCTAssertEqual(server.perform(["cmd": "mode", "mode": mode, "path": "/api/v1/status", "bytes": 11_000_000])?.name, "done")
            let failed = recorder.expect(10, "a failure in mode \(mode)", from: mark) { update in
                guard case .protocolError(let detail) = update.failure else { return false }
                return detail.contains(expected)
            }
            XCTAssertEqual(failed?.status?.state, .offline)
            let retried = recorder.all.count
            XCTAssertEqual(server.perform(["cmd": "mode", "mode": "normal"])?.name, "done")
            recorder.expect(10, "live again after \(mode)", from: retried) { $0.connection == .live }
        }
        let mark = recorder.all.count
        XCTAssertEqual(server.perform(["cmd": "mode", "mode": "stall"])?.name, "done")
        recorder.expect(20, "a silent printer times out", from: mark) { $0.failure == .timeout }
    }

    func testARefusedPortIsSaidAndNothingIsSent() throws {
        let recorder = StatusRecorder(.prusaLink(host: "127.0.0.1", port: closedLoopbackPort(), password: Self.password))
        recorder.expect(10, "refused") { $0.failure == .refused }
        XCTAssertEqual(recorder.send(.pause), .notConnected)
        XCTAssertEqual(PrintCommandText.title(.stop, for: .prusaLink(host: "h", port: 80, password: "p")), "Stop Print…")
    }
}

/// One outcome handed over from a command's thread.
private final class OutcomeHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: CommandOutcome?
    var value: CommandOutcome? {
        get { lock.withLock { outcome } }
        set { lock.withLock { outcome = newValue } }
    }
}
