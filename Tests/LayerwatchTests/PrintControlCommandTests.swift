import Foundation
import TestSupport
import XCTest

/// `layerwatch pause|resume|stop` as a user runs them against the real test printers: each command
/// reaches the printer exactly once and prints what the printer then reports; a state that does not
/// allow it, or a Bambu printer without Developer Mode, sends nothing and exits 11; `stop` asks on
/// a terminal (a real pseudo-terminal through util-linux's `script`) and refuses without `--yes`
/// when standard input is not one.
final class PrintControlCommandTests: XCTestCase {
    private func bambu() throws -> (TestServer, String) {
        let printer = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", "Pq55Rs66", "--partial"])
        addTeardownBlock { printer.stop() }
        let serial = try XCTUnwrap(printer.waitFor("ready")?.string("serial"))
        return (printer, "bambu://bblp:Pq55Rs66@127.0.0.1:\(printer.port)?serial=\(serial)")
    }

    private func printCommands(_ printer: TestServer) -> [String] {
        printer.events(named: "request").filter { $0.string("kind") == "print" }
            .compactMap { (($0.fields["payload"] as? [String: Any])?["print"] as? [String: Any])?["command"] as? String }
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
        XCTAssertEqual(declined.status, 0, declined.stdout)
        XCTAssertTrue(declined.stdout.contains("Cancel the Print? “gear.gcode” on “127.0.0.1” is cancelled for good"), declined.stdout)
        XCTAssertTrue(declined.stdout.contains("Nothing was sent."), declined.stdout)
        XCTAssertEqual(posts(), [], "declined and refused: nothing sent")

        let accepted = try CommandRun.product("layerwatch", ["stop", url], launcher: onATerminal, input: "y\n")
        XCTAssertEqual(accepted.status, 0, accepted.stdout)
        XCTAssertTrue(accepted.stdout.contains("Cancel Print: sent. The printer reports: failed."), accepted.stdout)
        let yes = try CommandRun.product("layerwatch", ["stop", url, "--yes"])
        XCTAssertEqual(yes.status, 11, "already cancelled\n" + yes.stdout)
        XCTAssertEqual(posts(), ["/printer/print/cancel"])
    }
}
