import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Pause, resume, stop and speed against the real test printers: the Bambu one behind Debian's
/// mosquitto (commands echoed with their sequence id, refused while the firmware wants signatures),
/// Moonraker's and OctoPrint's HTTP APIs recording each POST. Each command reaches the printer
/// exactly once, the status follows the printer's report, and a refusal carries the printer's words.
final class PrintCommandTests: XCTestCase {
    private let code = "27182818"

    private func server(_ script: String, _ arguments: [String]) throws -> TestServer {
        let server = try TestServer(script: script, arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    private func bambu(_ arguments: [String] = []) throws -> (TestServer, StatusRecorder) {
        let server = try server("bambu_mqtt_printer.py", ["--code", code, "--partial"] + arguments)
        let serial = try XCTUnwrap(server.waitFor("ready")?.string("serial"))
        return (server, StatusRecorder(.bambu(host: "127.0.0.1", port: server.port, accessCode: code, serial: serial)))
    }


    private func printRequests(_ server: TestServer) -> [[String: Any]] {
        server.events(named: "request").filter { $0.string("kind") == "print" }
            .compactMap { ($0.fields["payload"] as? [String: Any])?["print"] as? [String: Any] }
    }

    func testBambuPauseResumeSpeedAndStopEachReachThePrinterOnceAndTheStatusFollows() throws {
        let (server, recorder) = try bambu()
        recorder.awaitStatus(15, "idle") { $0.state == .idle && $0.speed == .standard }
        server.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy", "mc_percent": 20]])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }

        XCTAssertEqual(recorder.send(.pause), .done)
        recorder.awaitStatus(10, "paused, as the printer reports") { $0.state == .paused }
        XCTAssertEqual(recorder.send(.speed(.sport)), .done)
        recorder.awaitStatus(10, "sport") { $0.speed == .sport }
        XCTAssertEqual(recorder.send(.resume), .done)
        recorder.awaitStatus(10, "printing again") { $0.state == .printing }
        XCTAssertEqual(recorder.send(.stop), .done)
        recorder.awaitStatus(10, "stopped: FAILED with 0300_400C, a cancelled print") { $0.state == .cancelled }

        let requests = printRequests(server)
        XCTAssertEqual(requests.compactMap { $0["command"] as? String }, ["pause", "print_speed", "resume", "stop"],
                       "each command once, in order")
        XCTAssertEqual(requests[1]["param"] as? String, "3", "sport is profile 3")
        let ids = requests.compactMap { $0["sequence_id"] as? String }
        XCTAssertEqual(Set(ids).count, 4, "every command has its own sequence id: \(ids)")
    }

    func testBambuRefusalsCarryTheReasonAndDeveloperModeIsNamed() throws {
        let (server, recorder) = try bambu()
        recorder.awaitStatus(15, "idle") { $0.state == .idle }
        // Not printing: the printer says why.
        guard case .refused(let reason?) = recorder.send(.pause) else { return XCTFail("not refused with a reason") }
        XCTAssertTrue(reason.contains("idle"), reason)

        // Firmware that wants signed commands without saying so in `fun`: its err_code names it.
        server.send(["cmd": "answers", "mode": "unsigned"])
        XCTAssertNotNil(server.waitFor("done") { $0.string("cmd") == "answers" })
        server.send(["cmd": "set", "print": ["gcode_state": "RUNNING"]])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(recorder.send(.pause), .needsDeveloperMode)
        XCTAssertEqual(CommandOutcome.needsDeveloperMode.message,
                       "Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch")

        // `fun` bit 0x20000000 (ha-bambulab's MQTT_SIGNATURE_REQUIRED): known at once, nothing sent.
        server.send(["cmd": "answers", "mode": "normal"])
        server.send(["cmd": "set", "print": ["fun": "3EC1AFFF9CFF"]])
        recorder.awaitStatus(10, "Developer Mode off") { $0.needsDeveloperMode }
        let sentBefore = printRequests(server).count
        XCTAssertEqual(recorder.send(.stop), .needsDeveloperMode)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(printRequests(server).count, sentBefore, "nothing is sent while the firmware wants signatures")

        // Developer Mode on (the bit clear, as ha-bambulab's sample 3EC18FFF9CFF): control works.
        let mark = recorder.all.count
        server.send(["cmd": "set", "print": ["fun": "3EC18FFF9CFF"]])
        recorder.awaitStatus(10, "Developer Mode on", from: mark) { !$0.needsDeveloperMode }
        XCTAssertEqual(recorder.send(.pause), .done)
    }

    func testAPrinterThatDoesNotAnswerIsToldAfterTenSeconds() throws {
        let (server, recorder) = try bambu()
        server.send(["cmd": "set", "print": ["gcode_state": "RUNNING"]])
        recorder.awaitStatus(15, "printing") { $0.state == .printing }
        server.send(["cmd": "answers", "mode": "silent"])
        XCTAssertNotNil(server.waitFor("done") { $0.string("cmd") == "answers" })
        let started = Date()
        XCTAssertEqual(recorder.send(.pause, timeout: 20), .noAnswer)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), StatusMonitor.commandTimeout - 0.5)
        XCTAssertEqual(printRequests(server).count, 1)
    }

    func testMoonrakerCommandsArePostedOnceWithTheKeyAndRefusalsQuoteKlipper() throws {
        let moonraker = try server("moonraker_server.py", ["--api-key", "MOONKEY42"])
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: "MOONKEY42"))
        recorder.awaitStatus(10, "standby") { $0.state == .idle }
        guard case .refused(let reason?) = recorder.send(.resume) else { return XCTFail("not refused") }
        XCTAssertEqual(reason, "Print is not paused, resume aborted")

        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "cube.gcode"]]])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(recorder.send(.pause), .done)
        recorder.awaitStatus(10, "paused") { $0.state == .paused }
        XCTAssertEqual(recorder.send(.stop), .done)
        recorder.awaitStatus(10, "cancelled") { $0.state == .cancelled }

        // The server's lines may reach the test just after the state they led to.
        XCTAssertTrue(waitUntil(timeout: 5) { moonraker.events(named: "request").filter { $0.string("method") == "POST" }.count >= 3 })
        let posts = moonraker.events(named: "request").filter { $0.string("method") == "POST" }
        XCTAssertEqual(posts.compactMap { $0.string("path") },
                       ["/printer/print/resume", "/printer/print/pause", "/printer/print/cancel"])
        XCTAssertTrue(posts.allSatisfy { $0.fields["authorized"] as? Bool == true }, "the key goes with every command")
    }

    func testOctoPrintJobCommandsAndItsConflictAnswer() throws {
        let octoprint = try server("octoprint_server.py", ["--api-key", "OCTOKEY7"])
        let recorder = StatusRecorder(.octoprint(host: "127.0.0.1", port: octoprint.port, apiKey: "OCTOKEY7"))
        recorder.awaitStatus(10, "operational") { $0.state == .idle }
        guard case .refused(let reason?) = recorder.send(.stop) else { return XCTFail("not refused") }
        XCTAssertTrue(reason.hasPrefix("Printer is neither printing nor paused"), reason)

        octoprint.send(["cmd": "set", "state": "Printing", "job": ["file": ["name": "vase.gcode"]]])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(recorder.send(.pause), .done)
        recorder.awaitStatus(10, "paused") { $0.state == .paused }
        XCTAssertEqual(recorder.send(.resume), .done)
        recorder.awaitStatus(10, "printing") { $0.state == .printing }

        // The server's lines may reach the test just after the state they led to.
        XCTAssertTrue(waitUntil(timeout: 5) { octoprint.events(named: "request").filter { $0.string("method") == "POST" }.count >= 3 })
        let bodies = octoprint.events(named: "request").filter { $0.string("method") == "POST" }.compactMap { $0.fields["body"] as? [String: Any] }
        XCTAssertEqual(bodies.map { [$0["command"] as? String, $0["action"] as? String] },
                       [["cancel", nil], ["pause", "pause"], ["pause", "resume"]])
    }

    func testNothingIsSentWhileTheStatusIsNotLive() throws {
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: closedLoopbackPort(), apiKey: nil))
        recorder.expect(10, "refused") { $0.failure == .refused }
        XCTAssertEqual(recorder.send(.pause), .notConnected)
    }
}
