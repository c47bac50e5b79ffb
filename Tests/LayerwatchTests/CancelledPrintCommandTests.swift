import Foundation
import TestSupport
import XCTest

/// A stopped print is cancelled, never failed, for every printer family, against the real test
/// printers: `layerwatch stop` answers "The printer reports: cancelled.", and `status --json` then
/// says `"state":"cancelled"` with no error (OctoPrint says only "Operational" after a cancel, so
/// there the answer to the stop, which watched it happen, is what says so). A stop from another
/// client reads the same; a Bambu print that failed of a fault is still failed, with its error.
final class CancelledPrintCommandTests: XCTestCase {
    /// Runs `layerwatch stop URL --yes` and checks its answer says cancelled and nothing failed.
    private func stop(_ url: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try CommandRun.product("layerwatch", ["stop", url, "--yes"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr, file: file, line: line)
        XCTAssertTrue(run.stdout.contains(": sent. The printer reports: cancelled."), run.stdout, file: file, line: line)
        XCTAssertFalse((run.stdout + run.stderr).lowercased().contains("fail"), run.stdout + run.stderr, file: file, line: line)
    }

    /// `layerwatch status URL --json` as an object.
    private func status(_ url: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let run = try CommandRun.product("layerwatch", ["status", url, "--json"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr, file: file, line: line)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout, file: file, line: line)
    }

    /// Checks a status object is the cancelled print of `job`, with no error of any kind.
    private func assertCancelled(_ object: [String: Any], job: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(object["state"] as? String, "cancelled", "\(object)", file: file, line: line)
        XCTAssertEqual(object["job"] as? String, job, file: file, line: line)
        XCTAssertNil(object["error"], "a stop is no error: \(object)", file: file, line: line)
        XCTAssertNil(object["printError"], "\(object)", file: file, line: line)
    }

    func testAMoonrakerStopIsCancelled() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: [])
        defer { moonraker.stop() }
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
        XCTAssertNotNil(moonraker.waitFor("done"))
        let url = "moonraker://127.0.0.1:\(moonraker.port)"
        try stop(url)
        assertCancelled(try status(url), job: "gear.gcode")
        let text = try CommandRun.product("layerwatch", ["status", url])
        XCTAssertTrue(text.stdout.contains("state      Cancelled"), text.stdout)
        XCTAssertFalse(text.stdout.contains("error"), text.stdout)
    }

    func testABambuStopIsCancelledAndAFaultStillFailed() throws {
        let code = "Pq55Rs66"
        let printer = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial"])
        defer { printer.stop() }
        let serial = try XCTUnwrap(printer.waitFor("ready")?.string("serial"))
        let url = "bambu://bblp:\(code)@127.0.0.1:\(printer.port)?serial=\(serial)"
        printer.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy"]])
        XCTAssertNotNil(printer.waitFor("done"))
        try stop(url)
        assertCancelled(try status(url), job: "Benchy")

        // Stopped on the printer's screen: FAILED with "Printing was cancelled." (0500_400E).
        printer.send(["cmd": "set", "print": ["gcode_state": "FAILED", "print_error": 0x0500_400E, "subtask_name": "Gear"]])
        XCTAssertNotNil(printer.waitFor("done"))
        assertCancelled(try status(url), job: "Gear")

        // A fault (the nozzle clogged, 0300_4006) is a failed print, with its words.
        printer.send(["cmd": "set", "print": ["gcode_state": "FAILED", "print_error": 0x0300_4006]])
        XCTAssertNotNil(printer.waitFor("done"))
        let failed = try status(url)
        XCTAssertEqual(failed["state"] as? String, "failed")
        XCTAssertEqual(failed["error"] as? String, "The nozzle is clogged. (0300_4006)")
    }

    func testAnOctoPrintCancelIsCancelled() throws {
        let octoprint = try TestServer(script: "octoprint_server.py", arguments: ["--api-key", "OCTOKEY123456"])
        defer { octoprint.stop() }
        octoprint.send(["cmd": "set", "state": "Printing", "job": ["file": ["name": "vase.gcode", "display": "vase.gcode"]],
                        "progress": ["completion": 42]])
        XCTAssertNotNil(octoprint.waitFor("done"))
        try stop("octoprint://127.0.0.1:\(octoprint.port)?key=OCTOKEY123456")
    }

    func testACrealityStopIsCancelled() throws {
        let printer = try TestServer(script: "creality_ws_server.py")
        defer { printer.stop() }
        printer.send(["cmd": "set", "fields": ["state": 1, "printFileName": "/usr/data/printer_data/gcodes/cube.gcode", "printProgress": 30]])
        XCTAssertNotNil(printer.waitFor("done"))
        let url = "creality://127.0.0.1:\(printer.port)"
        try stop(url)
        assertCancelled(try status(url), job: "cube.gcode")
    }
}
