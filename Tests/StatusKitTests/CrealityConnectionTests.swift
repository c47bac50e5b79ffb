import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Creality printer's status over its LAN websocket against a fake printer that speaks the
/// server side of RFC 6455 and Creality's fields (Tests/Servers/creality_ws_server.py): the fields
/// decoded and merged across deltas, the states, the heartbeat, commands and the light as `set`
/// requests, reconnecting, and hostile messages refused with a clear failure.
final class CrealityConnectionTests: XCTestCase {
    private func printer(_ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: "creality_ws_server.py", arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    private func recorder(_ server: TestServer) -> StatusRecorder {
        StatusRecorder(.creality(host: "127.0.0.1", port: server.port))
    }

    private func set(_ server: TestServer, _ fields: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        let before = server.events(named: "done").count
        server.send(["cmd": "set", "fields": fields])
        XCTAssertTrue(awaitEvents(server, "done", count: before + 1), "the peer took the change", file: file, line: line)
    }

    /// Whether `server` has sent `count` events named `name` within `timeout`.
    private func awaitEvents(_ server: TestServer, _ name: String, count: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if server.events(named: name).count >= count { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    private func mode(_ server: TestServer, _ mode: String) {
        server.send(["cmd": "mode", "mode": mode])
        XCTAssertNotNil(server.waitFor("done") { $0.string("mode") == mode })
    }


    private func setRequests(_ server: TestServer) -> [[String: Any]] {
        server.events(named: "request").filter { $0.string("method") == "set" }.compactMap { $0.fields["params"] as? [String: Any] }
    }

    func testFieldsAreDecodedAndDeltasMerged() throws {
        let server = try printer()
        let recorder = recorder(server)
        let idle = recorder.awaitStatus(10, "idle with its heaters") { $0.state == .idle && $0.bed != nil }
        XCTAssertEqual(idle?.nozzles, [.init(current: 24.3, target: 0)!], "a temperature sent as a string is read")
        XCTAssertEqual(idle?.chamber?.current, 25)
        XCTAssertEqual(idle?.chamberLight, false)
        XCTAssertNil(idle?.job)
        XCTAssertEqual(server.events(named: "connected").first?.fields["key_ok"] as? Bool, true, "a 16-byte key")

        set(server, ["state": 1, "printFileName": "/usr/data/printer_data/gcodes/benchy_PLA_41m.gcode", "printProgress": 42,
                     "layer": 57, "TotalLayer": 180, "printLeftTime": 4320, "printJobTime": 1800, "nozzleTemp": "219.600000",
                     "targetNozzleTemp": 220, "bedTemp0": 60.1, "targetBedTemp0": 60, "boxTemp": 31, "targetBoxTemp": 40])
        let printing = try XCTUnwrap(recorder.awaitStatus(10, "printing") { $0.state == .printing })
        XCTAssertEqual(printing.job, "benchy_PLA_41m.gcode")
        XCTAssertEqual(printing.progress, 42)
        XCTAssertEqual(printing.layer, 57)
        XCTAssertEqual(printing.totalLayers, 180)
        XCTAssertEqual(printing.timeLeft, 4320)
        XCTAssertEqual(printing.elapsed, 1800)
        XCTAssertEqual(printing.nozzles, [.init(current: 219.6, target: 220)!])
        XCTAssertEqual(printing.bed, .init(current: 60.1, target: 60))
        XCTAssertEqual(printing.chamber, .init(current: 31, target: 40))

        // The printer sends only what changed: the rest stands.
        set(server, ["printProgress": 43])
        let delta = try XCTUnwrap(recorder.awaitStatus(10, "43 %") { $0.progress == 43 })
        XCTAssertEqual(delta.state, .printing)
        XCTAssertEqual(delta.job, "benchy_PLA_41m.gcode")
        XCTAssertEqual(delta.layer, 57)
        XCTAssertEqual(delta.nozzles.first?.current, 219.6)

        set(server, ["withSelfTest": 40])
        recorder.awaitStatus(10, "self-test: preparing") { $0.state == .preparing }
        set(server, ["withSelfTest": 0, "state": 2, "printProgress": 100])
        let finished = recorder.awaitStatus(10, "complete") { $0.state == .finished }
        XCTAssertNil(finished?.timeLeft, "no time left once finished")
        set(server, ["state": 3, "err": ["errcode": 2839, "key": 2839]])
        let failed = recorder.awaitStatus(10, "failed") { $0.state == .failed }
        XCTAssertTrue(failed?.errorText?.contains("2839") == true, "\(String(describing: failed?.errorText))")
        let beforeIdle = recorder.all.count
        set(server, ["state": 0, "err": ["errcode": 0], "printFileName": "", "printProgress": 0])
        let idleAgain = recorder.awaitStatus(10, "idle again", from: beforeIdle) { $0.state == .idle && $0.errorText == nil }
        XCTAssertNil(idleAgain?.progress)
    }

    func testTheHeartbeatIsAnsweredOk() throws {
        let server = try printer(["--heartbeat", "0.5"])
        let recorder = recorder(server)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        XCTAssertNotNil(server.waitFor("heartbeat_ack", timeout: 5), "the heart_beat message is answered with the text ok")
        XCTAssertFalse(recorder.all.contains { $0.failure != nil }, "a heartbeat is no status and no failure")
    }

    func testCommandsAndTheLightAreSetRequestsDoneWhenTheStateFollows() throws {
        let server = try printer()
        let recorder = recorder(server)
        set(server, ["state": 1, "printFileName": "/usr/data/printer_data/gcodes/clip.gcode", "printProgress": 10])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(recorder.send(.pause), .done)
        recorder.awaitStatus(10, "paused") { $0.state == .paused }
        let beforeResume = recorder.all.count
        XCTAssertEqual(recorder.send(.resume), .done)
        recorder.awaitStatus(10, "printing again", from: beforeResume) { $0.state == .printing }
        XCTAssertEqual(recorder.send(.stop), .done)
        let stopped = recorder.awaitStatus(10, "stopped") { $0.state == .cancelled }
        XCTAssertNil(stopped?.errorText, "a stop is no error")
        guard case .refused? = recorder.send(.speed(.sport)) else { return XCTFail("a speed profile is refused") }

        XCTAssertTrue(StatusEndpoint.creality(host: "k1", port: 9999).hasSwitchableLight)
        recorder.monitor.setChamberLight(true)
        recorder.awaitStatus(10, "light on") { $0.chamberLight == true }
        let beforeOff = recorder.all.count
        recorder.monitor.setChamberLight(false)
        recorder.awaitStatus(10, "light off", from: beforeOff) { $0.chamberLight == false }

        let sets = setRequests(server).map { $0.mapValues { ($0 as? NSNumber)?.intValue ?? -1 } }
        XCTAssertEqual(sets, [["pause": 1], ["pause": 0], ["stop": 1], ["lightSw": 1], ["lightSw": 0]])
    }

    func testACommandThePrinterIgnoresHasNoAnswer() throws {
        let server = try printer()
        let recorder = recorder(server)
        set(server, ["state": 1, "printFileName": "a.gcode"])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        mode(server, "deaf")
        let started = Date()
        XCTAssertEqual(recorder.send(.pause, timeout: 20), .noAnswer)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), StatusMonitor.commandTimeout - 0.5)
        XCTAssertEqual(setRequests(server).count, 1, "sent once")
    }

    func testItReconnectsAfterThePrinterCloses() throws {
        let server = try printer()
        let recorder = recorder(server)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        mode(server, "close")
        let closed = recorder.expect(10, "the close reported") { $0.failure != nil }
        XCTAssertEqual(closed?.failure, .protocolError("the printer closed the connection"))
        XCTAssertEqual(closed?.status?.state, .offline)
        let index = recorder.all.count
        set(server, ["state": 5, "printFileName": "b.gcode"])
        recorder.awaitStatus(10, "live again with the new state", from: index) { $0.state == .paused }
        XCTAssertGreaterThanOrEqual(server.events(named: "connected").count, 2)
    }

    func testFragmentsWithAPingBetweenAreJoined() throws {
        let server = try printer()
        let recorder = recorder(server)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        mode(server, "fragmented")
        XCTAssertNotNil(server.waitFor("pong", timeout: 5), "the ping between fragments is answered")
        set(server, ["printProgress": 7, "printFileName": "c.gcode", "state": 1])
        recorder.awaitStatus(10, "the next message read after the fragments") { $0.progress == 7 }
        XCTAssertFalse(recorder.all.contains { $0.failure != nil }, "\(recorder.all)")
    }

    /// What breaks the protocol ends the connection with a clear failure, and it reconnects.
    func testHostileFramesAreRefusedWithAClearFailure() throws {
        let server = try printer()
        let recorder = recorder(server)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        let cases: [(mode: String, detail: String)] = [
            ("badframe", "a WebSocket frame with reserved bits set"),
            ("huge", "a message of 8388608 bytes, over the 1 MB limit"),
        ]
        for (mode, detail) in cases {
            let index = recorder.all.count
            recorder.expect(10, "live before \(mode)", from: max(0, index - 1)) { $0.connection == .live }
            let connected = server.events(named: "connected").count
            self.mode(server, mode)
            let failed = recorder.expect(10, "\(mode) refused", from: index) { $0.failure != nil }
            XCTAssertEqual(failed?.failure, .protocolError(detail), mode)
            XCTAssertTrue(failed?.failure?.userMessage.contains(detail) == true)
            XCTAssertTrue(awaitEvents(server, "connected", count: connected + 1), "reconnected after \(mode)")
        }
        let index = recorder.all.count
        set(server, ["state": 1, "printFileName": "d.gcode"])
        recorder.awaitStatus(10, "the status still follows", from: index) { $0.state == .printing }
    }

    /// A message that is not UTF-8, not JSON or nested 100 000 deep is skipped, as a bad MQTT report
    /// is: the good messages around it, in the same read, still count, and the connection stays.
    func testBadMessagesBetweenGoodOnesAreSkipped() throws {
        let server = try printer()
        let recorder = recorder(server)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        for mode in ["garbage", "badutf8", "deep"] { self.mode(server, mode) }
        server.send(["cmd": "interleave", "deltas": [["state": 1, "printFileName": "/usr/data/e.gcode", "printProgress": 5],
                                                     ["printProgress": 6, "layer": 3]]])
        XCTAssertNotNil(server.waitFor("done") { $0.string("cmd") == "interleave" })
        let after = try XCTUnwrap(recorder.awaitStatus(10, "both good messages read") { $0.progress == 6 })
        XCTAssertEqual(after.state, .printing)
        XCTAssertEqual(after.job, "e.gcode")
        XCTAssertEqual(after.layer, 3)
        set(server, ["printProgress": 7])
        recorder.awaitStatus(10, "the status still follows") { $0.progress == 7 }
        XCTAssertFalse(recorder.all.contains { $0.failure != nil }, "\(recorder.all)")
        XCTAssertFalse(recorder.all.contains { $0.status?.state == .failed }, "the message that is not UTF-8 is not read")
        XCTAssertEqual(server.events(named: "connected").count, 1, "one connection throughout")
    }

    /// A websocket that asks for a login (Creality's has none) is told in Creality's terms: no
    /// access code is asked for, and it is not retried.
    func testALoginAskedForIsToldInCrealitysTerms() throws {
        for status in ["401", "403"] {
            let server = try printer(["--refuse", status])
            let recorder = recorder(server)
            let failed = recorder.expect(10, "\(status) refused") { $0.failure != nil }
            XCTAssertEqual(failed?.connection, .failed(.loginRequired, retryIn: nil))
            let message = try XCTUnwrap(failed?.failure?.userMessage)
            XCTAssertTrue(message.contains("asks for a login, which this printer's status connection does not have"), message)
            XCTAssertFalse(message.localizedCaseInsensitiveContains("access code") || message.contains("API key"), message)
            XCTAssertEqual(StatusFailure.loginRequired.kind, "authRejected", "exit code 3, as a refused login")
        }
    }

    /// A server flooding pings as fast as the client takes them costs the status thread a bounded
    /// share of a core: pongs are paced and answer the newest ping, and past a budget the flood is
    /// read at a bounded pace; the status pushed between the pings still flows.
    func testAPingFloodCostsABoundedShareOfACore() throws {
        let server = try printer()
        let recorder = recorder(server)
        set(server, ["state": 1, "printFileName": "/usr/data/f.gcode", "printProgress": 0])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        let seconds = 6.0
        let cpuBefore = ThreadCensus.cpuSeconds(prefix: StatusMonitor.threadName)
        let started = Date()
        server.send(["cmd": "pingflood", "seconds": seconds])
        let flooded = try XCTUnwrap(server.waitFor("flooded", timeout: seconds + 10))
        let elapsed = Date().timeIntervalSince(started)
        let cpu = ThreadCensus.cpuSeconds(prefix: StatusMonitor.threadName) - cpuBefore
        let pings = flooded.fields["pings"] as? Int ?? 0, pongs = flooded.fields["pongs"] as? Int ?? 0
        let progress = try XCTUnwrap(flooded.fields["progress"] as? Int)
        print("ping flood: \(pings) pings, \(pongs) pongs, \(String(format: "%.2f", cpu)) s CPU in \(String(format: "%.1f", elapsed)) s")
        XCTAssertGreaterThan(pings, 10_000, "a flood")
        XCTAssertLessThan(cpu, 0.25 * elapsed, "the status thread's CPU during the flood")
        XCTAssertGreaterThan(pongs, 0, "pings are still answered")
        XCTAssertLessThanOrEqual(pongs, Int(elapsed / ControlFrameBudget.pongSpacing) + 2, "pongs are paced")
        // The progress pushed between the pings arrives: during the flood, and its last soon after.
        XCTAssertTrue(recorder.all.contains { ($0.status?.progress ?? 0) >= 2 && ($0.status?.progress ?? 0) < Double(progress) }, "\(recorder.all.suffix(3))")
        recorder.awaitStatus(10, "the last progress pushed in the flood") { $0.progress == Double(progress) }
        set(server, ["printProgress": 99])
        recorder.awaitStatus(10, "the status follows after the flood") { $0.progress == 99 }
        XCTAssertFalse(recorder.all.contains { $0.failure != nil }, "\(recorder.all.filter { $0.failure != nil })")
    }

    func testAnHTTPServerThatIsNoWebSocketIsRefused() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock { moonraker.stop() }
        let recorder = StatusRecorder(.creality(host: "127.0.0.1", port: moonraker.port))
        recorder.expect(10, "no printer API there") { $0.connection == .failed(.notFound, retryIn: nil) }
    }

    func testASilentPrinterTimesOut() throws {
        let server = try printer()
        mode(server, "silent")
        let endpoint = StatusEndpoint.creality(host: "127.0.0.1", port: server.port)
        let connection = CrealityConnection(host: "127.0.0.1", port: server.port, log: StatusLog(endpoint: endpoint), quietAfter: 0.5, silenceLimit: 2)
        let started = Date()
        XCTAssertThrowsError(try connection.run(stop: StopSignal(), live: {}, report: { _ in })) { error in
            XCTAssertEqual(error as? StatusFailure, .timeout)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 6)
        XCTAssertNotNil(server.waitFor("ping", timeout: 2), "a quiet printer is pinged before it is given up")
    }

    func testRefusedPortAndTheURL() throws {
        XCTAssertEqual(try StatusEndpoint.parse("creality://192.168.1.30"), .creality(host: "192.168.1.30", port: 9999))
        XCTAssertEqual(try StatusEndpoint.parse("creality://[fd00::7]:9998"), .creality(host: "fd00::7", port: 9998))
        XCTAssertEqual(StatusEndpoint.creality(host: "fd00::7", port: 9999).description, "creality://[fd00::7]:9999")
        XCTAssertEqual(PrintCommandText.title(.stop, for: .creality(host: "k1", port: 9999)), "Stop Print…", "Creality Print stops a print")
        let recorder = StatusRecorder(.creality(host: "127.0.0.1", port: closedLoopbackPort()))
        recorder.expect(10, "refused") { $0.failure == .refused }
        XCTAssertEqual(recorder.send(.pause), .notConnected)
    }

    func testStateNumbers() {
        func state(_ fields: [String: Any]) -> PrinterStatus.State {
            var report = CrealityReport()
            report.merge(fields)
            return report.status.state
        }
        let expected: [Int: PrinterStatus.State] = [0: .idle, 1: .printing, 2: .finished, 3: .failed, 4: .cancelled, 5: .paused,
                                                    6: .paused, 7: .printing, 8: .paused, 42: .idle]
        for (number, want) in expected { XCTAssertEqual(state(["state": number]), want, "state \(number)") }
        XCTAssertEqual(state(["state": "5"]), .paused, "a number sent as a string")
        XCTAssertEqual(state(["state": 0, "printFileName": "/a/b.gcode", "printProgress": 100]), .finished)
        XCTAssertEqual(state(["state": 1, "withSelfTest": 12]), .preparing)
        XCTAssertEqual(state([:]), .idle)
        var report = CrealityReport()
        report.merge(["unknownKey": 1, "model": "K1C"])
        XCTAssertTrue(report.isEmpty, "fields Layerwatch does not read are not kept")
    }
}
