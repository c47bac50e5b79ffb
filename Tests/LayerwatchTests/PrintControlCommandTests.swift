import Foundation
import TestSupport
import XCTest

/// `layerwatch pause|resume|stop` as a user runs them against the real test printers: each command
/// reaches the printer exactly once and prints what the printer then reports; a state that does not
/// allow it, or a Bambu printer without Developer Mode, sends nothing and exits 11; `stop` asks on
/// a terminal (a real pseudo-terminal through util-linux's `script`), exits 12 when told no, and
/// refuses without `--yes` when standard input is not one; a stop confirmed after another job began
/// is not sent; an accepted command the printer's state does not follow exits 13; a hostile
/// broker's echo of another command with our sequence id is no answer; a name two saved printers
/// share is refused.
final class PrintControlCommandTests: XCTestCase {
    private let code = "Pq55Rs66"

    private func bambu() throws -> (TestServer, String) {
        let (printer, serial) = try bambuPrinter()
        return (printer, "bambu://bblp:\(code)@127.0.0.1:\(printer.port)?serial=\(serial)")
    }

    /// A fake Bambu printer and its serial.
    private func bambuPrinter() throws -> (TestServer, String) {
        let printer = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial"])
        addTeardownBlock { printer.stop() }
        return (printer, try XCTUnwrap(printer.waitFor("ready")?.string("serial")))
    }

    /// The printers.json entry of a saved Bambu printer named `name` on `printer`.
    private func saved(_ name: String, id: String, on printer: TestServer, serial: String) -> [String: Any] {
        ["id": id, "name": name, "kind": "bambuRTSPS", "model": "BL-P001", "host": "127.0.0.1", "apiPort": printer.port,
         "serial": serial, "accessCode": code]
    }

    /// The environment that has layerwatch read a printer list holding `printers` (printers.json
    /// entries); no session bus, so no keyring: the codes are the file's.
    private func savedPrinters(_ printers: [[String: Any]]) throws -> [String: String] {
        let config = try makeTemporaryDirectory()
        let folder = config.appendingPathComponent("layerwatch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: ["formatVersion": 3, "printers": printers])
            .write(to: folder.appendingPathComponent("printers.json"))
        return ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
    }

    private func printCommands(_ printer: TestServer) -> [String] {
        printRequests(printer).compactMap { $0["command"] as? String }
    }

    /// The `print` objects of the print commands the printer received.
    private func printRequests(_ printer: TestServer) -> [[String: Any]] {
        printer.events(named: "request").filter { $0.string("kind") == "print" }
            .compactMap { ($0.fields["payload"] as? [String: Any])?["print"] as? [String: Any] }
    }

    func testPauseAndResumeABambuPrintAndPrintWhatItReports() throws {
        let (printer, url) = try bambu()
        printer.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy"]])
        XCTAssertNotNil(printer.waitFor("done"))
        let pause = try CommandRun.product("layerwatch", ["pause", url])
        XCTAssertEqual(pause.status, 0, pause.stdout + pause.stderr)
        XCTAssertTrue(pause.stdout.contains("Pause Print: sent. The printer reports: paused."), pause.stdout)
        let again = try CommandRun.product("layerwatch", ["pause", url, "--json"])
        XCTAssertEqual(again.status, 11, "already paused: refused without sending\n" + again.stdout)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["outcome"] as? String, "notApplicable")
        XCTAssertEqual(object["message"] as? String, "The printer is paused: there is no print to pause.")
        let resume = try CommandRun.product("layerwatch", ["resume", url, "--json"])
        XCTAssertEqual(resume.status, 0, resume.stdout + resume.stderr)
        let resumed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(resume.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(resumed["outcome"] as? String, "done")
        XCTAssertEqual(resumed["state"] as? String, "printing", "what the printer reported after the command")
        XCTAssertEqual(printCommands(printer), ["pause", "resume"], "each sent once; the refused one not at all")
        for run in [pause, again, resume] { XCTAssertFalse((run.stdout + run.stderr).contains("Pq55Rs66")) }
    }

    func testDeveloperModeOffSendsNothingAndSaysWhatToDo() throws {
        let (printer, url) = try bambu()
        printer.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "fun": "3EC1AFFF9CFF"]])
        XCTAssertNotNil(printer.waitFor("done"))
        let run = try CommandRun.product("layerwatch", ["pause", url])
        XCTAssertEqual(run.status, 11, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch"), run.stdout)
        XCTAssertEqual(printCommands(printer), [])
    }

    func testStopAsksOnATerminalAndRefusesWithoutYesOtherwise() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: [])
        defer { moonraker.stop() }
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
        XCTAssertNotNil(moonraker.waitFor("done"))
        let url = "moonraker://127.0.0.1:\(moonraker.port)"
        let posts = { moonraker.events(named: "request").filter { $0.string("method") == "POST" }.compactMap { $0.string("path") } }

        let piped = try CommandRun.product("layerwatch", ["stop", url], input: "y\n")
        XCTAssertNotEqual(piped.status, 0)
        XCTAssertTrue(piped.stderr.contains("give --yes when standard input is not a terminal"), piped.stderr)

        // A terminal: script(1) runs the command on a pseudo-terminal fed from the pipe.
        let onATerminal = ["/bin/sh", "-c", "exec /usr/bin/script -qec \"$0 $*\" /dev/null"]
        let declined = try CommandRun.product("layerwatch", ["stop", url], launcher: onATerminal, input: "n\n")
        XCTAssertEqual(declined.status, 12, "declined: its own exit code\n" + declined.stdout)
        XCTAssertTrue(declined.stdout.contains("Cancel the Print? “gear.gcode” on “127.0.0.1” is cancelled for good"), declined.stdout)
        XCTAssertTrue(declined.stdout.contains("Nothing was sent."), declined.stdout)
        XCTAssertEqual(posts(), [], "declined and refused: nothing sent")

        let accepted = try CommandRun.product("layerwatch", ["stop", url], launcher: onATerminal, input: "y\n")
        XCTAssertEqual(accepted.status, 0, accepted.stdout)
        XCTAssertTrue(accepted.stdout.contains("Cancel Print: sent. The printer reports: cancelled."), accepted.stdout)
        let yes = try CommandRun.product("layerwatch", ["stop", url, "--yes"])
        XCTAssertEqual(yes.status, 11, "already cancelled\n" + yes.stdout)
        XCTAssertEqual(posts(), ["/printer/print/cancel"])
    }

    func testAStopConfirmedAfterAnotherJobBeganIsNotSent() throws {
        let (printer, serial) = try bambuPrinter()
        XCTAssertNotNil(printer.perform(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Job_A"]]))
        let environment = try savedPrinters([saved("X1C", id: UUID().uuidString, on: printer, serial: serial)])
        // The answer waits on a terminal until the gate exists: the job changes while the question is up.
        let gate = try makeTemporaryDirectory().appendingPathComponent("answer")
        let answerAtTheGate = ["/bin/sh", "-c", "(while [ ! -e '\(gate.path)' ]; do sleep 0.1; done; echo y) | /usr/bin/script -qec \"$0 $*\" /dev/null"]
        let finished = DispatchSemaphore(value: 0)
        let result = RunBox()
        DispatchQueue.global().async {
            result.run = try? CommandRun.product("layerwatch", ["stop", "--printer", "X1C"], environment: environment,
                                                 launcher: answerAtTheGate)
            finished.signal()
        }
        XCTAssertNotNil(printer.waitFor("request", timeout: 20) { $0.string("kind") == "pushall" }, "the command connected")
        Thread.sleep(forTimeInterval: 2)  // the first report, then the question
        XCTAssertNotNil(printer.perform(["cmd": "set", "print": ["subtask_name": "Job_B", "mc_percent": 1]]))
        Thread.sleep(forTimeInterval: 1)  // the report reaches the command
        FileManager.default.createFile(atPath: gate.path, contents: nil)
        XCTAssertEqual(finished.wait(timeout: .now() + 40), .success)
        let run = try XCTUnwrap(result.run)
        XCTAssertTrue(run.stdout.contains("Stop the Print? “Job_A” on “X1C” is stopped for good"), run.stdout)
        XCTAssertTrue(run.stdout.contains("“Job_A” has ended and “Job_B” has begun: nothing was sent."), run.stdout)
        XCTAssertEqual(run.status, 11, run.stdout)
        XCTAssertEqual(printCommands(printer), [], "Job_B was not stopped")
        XCTAssertFalse(run.stdout.contains(code))
    }

    func testAnAcceptedCommandThePrinterDoesNotCarryOutExits13() throws {
        let (printer, url) = try bambu()
        XCTAssertNotNil(printer.perform(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy"]]))
        XCTAssertNotNil(printer.perform(["cmd": "answers", "mode": "hollow"]))
        let pause = try CommandRun.product("layerwatch", ["pause", url])
        XCTAssertEqual(pause.status, 13, pause.stdout + pause.stderr)
        XCTAssertTrue(pause.stdout.contains("Pause Print: the printer accepted it but still reports: printing."), pause.stdout)
        let json = try CommandRun.product("layerwatch", ["pause", url, "--json"])
        XCTAssertEqual(json.status, 13, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(object["outcome"] as? String, "unconfirmed")
        XCTAssertEqual(object["state"] as? String, "printing")
        XCTAssertEqual(printCommands(printer), ["pause", "pause"])
    }

    func testAnEchoOfAnotherCommandWithOurSequenceIDIsNoAnswer() throws {
        let (printer, url) = try bambu()
        XCTAssertNotNil(printer.perform(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy"]]))
        XCTAssertNotNil(printer.perform(["cmd": "answers", "mode": "other_command"]))
        let pause = try CommandRun.product("layerwatch", ["pause", url, "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pause.stdout.utf8)) as? [String: Any], pause.stdout)
        XCTAssertEqual(object["outcome"] as? String, "noAnswer", "a `resume` echo with our id is not our pause's answer")
        XCTAssertEqual(pause.status, 5, pause.stdout)
        XCTAssertEqual(printCommands(printer), ["pause"])
    }

    func testSequenceIDsStartUnpredictably() throws {
        let (printer, url) = try bambu()
        XCTAssertNotNil(printer.perform(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy"]]))
        for command in ["pause", "resume"] {
            let run = try CommandRun.product("layerwatch", [command, url])
            XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        }
        let ids = printRequests(printer).compactMap { $0["sequence_id"] as? String }
        XCTAssertEqual(ids.count, 2)
        XCTAssertFalse(ids.contains("1001"), "\(ids)")
        XCTAssertNotEqual(ids.first, ids.last, "each run starts somewhere else")
        XCTAssertTrue(ids.allSatisfy { (Int($0) ?? 0) >= 1000 }, "\(ids)")
    }

    func testANameTwoSavedPrintersShareIsRefusedAndANumberOrIDChooses() throws {
        let (first, firstSerial) = try bambuPrinter()
        let (second, secondSerial) = try bambuPrinter()
        for printer in [first, second] {
            XCTAssertNotNil(printer.perform(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy"]]))
        }
        let firstID = "6F9619FF-8B86-D011-B42D-00CF4FC96401", secondID = "6F9619FF-8B86-D011-B42D-00CF4FC96403"
        // The second Twin is third in the list, after a camera called "3": its number would choose the camera.
        let environment = try savedPrinters([
            saved("Twin", id: firstID, on: first, serial: firstSerial),
            ["id": UUID().uuidString, "name": "3", "kind": "generic", "cameras": [["id": UUID().uuidString, "url": "rtsp://127.0.0.1/door"]]],
            saved("Twin", id: secondID, on: second, serial: secondSerial),
        ])
        let ambiguous = try CommandRun.product("layerwatch", ["stop", "--printer", "Twin", "--yes"], environment: environment)
        XCTAssertEqual(ambiguous.status, 2, ambiguous.stdout + ambiguous.stderr)
        XCTAssertTrue(ambiguous.stderr.contains("2 saved printers are called “Twin”: say which with --printer 1 (at 127.0.0.1, id \(firstID)) "
                                                + "or --printer \(secondID) (at 127.0.0.1, id \(secondID))"), ambiguous.stderr)
        XCTAssertEqual(printCommands(first) + printCommands(second), [], "neither Twin was stopped")

        let byID = try CommandRun.product("layerwatch", ["stop", "--printer", secondID.lowercased(), "--yes"], environment: environment)
        XCTAssertEqual(byID.status, 0, byID.stdout + byID.stderr)
        XCTAssertEqual(printCommands(second), ["stop"])
        let byNumber = try CommandRun.product("layerwatch", ["pause", "--printer", "1"], environment: environment)
        XCTAssertEqual(byNumber.status, 0, byNumber.stdout + byNumber.stderr)
        XCTAssertEqual(printCommands(first), ["pause"])
        let named = try CommandRun.product("layerwatch", ["stop", "--printer", "3", "--yes"], environment: environment)
        XCTAssertEqual(named.status, 2, "a name comes before a number: the camera called “3”\n" + named.stderr)
        XCTAssertTrue(named.stderr.contains("“3” has no print status"), named.stderr)
        XCTAssertEqual(printCommands(first) + printCommands(second), ["pause", "stop"])
    }
}

/// A command's run, handed from the thread that waited for it.
private final class RunBox: @unchecked Sendable {
    var run: CommandRun?
}
