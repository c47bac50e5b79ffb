import Foundation
import TestSupport
import XCTest

/// `layerwatch status|pause|resume|stop prusalink://…` as a user runs them, against the fake
/// PrusaLink (Tests/Servers/prusalink_server.py): the password from standard input or a saved
/// printer's, never on the command line nor in the output; a wrong one said in words; the printer's
/// `cameras` saying PrusaLink lists none.
final class PrusaLinkStatusCommandTests: XCTestCase {
    private static let password = "Pr1ntPass"

    func testStatusPauseResumeAndStopWithThePasswordFromStandardInput() throws {
        let printer = try TestServer(script: "prusalink_server.py", arguments: ["--password", Self.password])
        defer { printer.stop() }
        XCTAssertEqual(printer.perform(["cmd": "set", "printer": ["state": "PRINTING", "temp_nozzle": 215.2, "target_nozzle": 215],
                                        "job": ["id": 12, "progress": 37, "time_remaining": 4500, "time_printing": 2700,
                                                "file": ["name": "GEAR~1.BGC", "display_name": "gear_PETG_2h.bgcode"]]])?.name, "done")
        let url = "prusalink://127.0.0.1:\(printer.port)"
        let run = { (arguments: [String]) in try CommandRun.product("layerwatch", arguments, input: Self.password + "\n") }
        let json = try run(["status", url, "--code-from-stdin", "--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(object["endpoint"] as? String, "prusalink://maker:***@127.0.0.1:\(printer.port)")
        XCTAssertEqual(object["state"] as? String, "printing")
        XCTAssertEqual(object["job"] as? String, "gear_PETG_2h.bgcode")
        XCTAssertEqual(object["progress"] as? Double, 37)
        XCTAssertEqual(object["timeLeftSeconds"] as? Int, 4500)
        XCTAssertEqual((object["nozzles"] as? [[String: Any]])?.first?["current"] as? Double, 215.2)

        let text = try run(["status", url, "--code-from-stdin"])
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        for expected in ["state      Printing", "job        gear_PETG_2h.bgcode", "progress   37 %"] {
            XCTAssertTrue(text.stdout.contains(expected), "\(expected) missing from\n\(text.stdout)")
        }

        let pause = try run(["pause", url, "--code-from-stdin", "--json"])
        XCTAssertEqual(pause.status, 0, pause.stdout + pause.stderr)
        let paused = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pause.stdout.utf8)) as? [String: Any], pause.stdout)
        XCTAssertEqual(paused["outcome"] as? String, "done")
        XCTAssertEqual(paused["state"] as? String, "paused")
        let stop = try run(["stop", url, "--code-from-stdin", "--yes"])
        XCTAssertEqual(stop.status, 0, stop.stdout + stop.stderr)
        let sent = printer.events(named: "request").filter { $0.string("method") != "GET" && $0.fields["authorized"] as? Bool == true }
        XCTAssertEqual(sent.map { "\($0.string("method")!) \($0.string("path")!)" },
                       ["PUT /api/v1/job/12/pause", "DELETE /api/v1/job/12"])

        let wrong = try CommandRun.product("layerwatch", ["status", url, "--code-from-stdin"], input: "WrongPass9\n")
        XCTAssertEqual(wrong.status, 3, wrong.stdout + wrong.stderr)
        XCTAssertFalse((wrong.stdout + wrong.stderr).contains("WrongPass9"))
        let cameras = try run(["cameras", url, "--code-from-stdin"])
        XCTAssertTrue((cameras.stdout + cameras.stderr).contains("rtsp://CAMERA/live"), cameras.stdout + cameras.stderr)
        for output in [json, text, pause, stop, cameras] {
            XCTAssertFalse((output.stdout + output.stderr).contains(Self.password), output.stdout + output.stderr)
        }
        let missing = try CommandRun.product("layerwatch", ["status", url])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("--code-from-stdin"), missing.stderr)
    }

    func testASavedPrusaPrintersPasswordComesFromItsFile() throws {
        let printer = try TestServer(script: "prusalink_server.py", arguments: ["--password", Self.password])
        defer { printer.stop() }
        XCTAssertEqual(printer.perform(["cmd": "set", "printer": ["state": "ATTENTION", "status_printer": ["message": "Filament runout"]],
                                        "job": ["id": 3, "progress": 64]])?.name, "done")
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
            {"formatVersion": 3, "printers": [
             {"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FE", "name": "Core One", "kind": "prusalink", "host": "127.0.0.1",
              "apiPort": \(printer.port), "accessCode": "\(Self.password)", "cameras": []}]}
            """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        let status = try CommandRun.product("layerwatch", ["status", "--printer", "Core One"], environment: environment)
        XCTAssertEqual(status.status, 0, status.stdout + status.stderr)
        for expected in ["state      Paused", "progress   64 %", "The printer needs you: Filament runout — see its screen."] {
            XCTAssertTrue(status.stdout.contains(expected), "\(expected) missing from\n\(status.stdout)")
        }
        XCTAssertFalse(status.stdout.contains(Self.password), status.stdout)
    }

    /// PrusaLink lists no camera: `probe prusalink://…` says where a Prusa's camera is instead.
    func testProbeByThePrintersAddressSaysWhereItsCameraIs() throws {
        let probe = try CommandRun.product("layerwatch", ["probe", "prusalink://127.0.0.1:1", "--code-from-stdin"], input: Self.password + "\n")
        XCTAssertEqual(probe.status, 2, probe.stdout + probe.stderr)
        XCTAssertTrue(probe.stderr.contains("rtsp://CAMERA/live"), probe.stderr)
        XCTAssertFalse((probe.stdout + probe.stderr).contains(Self.password), "the password is never shown")
    }
}
