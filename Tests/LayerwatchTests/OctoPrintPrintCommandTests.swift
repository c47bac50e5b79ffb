import Foundation
import TestSupport
import XCTest

/// `layerwatch print` against a real OctoPrint 1.11 (PyPI's) and its virtual printer: the file is
/// uploaded with print=true and OctoPrint's own /api/job then shows it printing; a busy printer is
/// refused before anything is sent (OctoPrint never lists the file), and a wrong key is told in
/// the user's words.
final class OctoPrintPrintCommandTests: XCTestCase {
    func testOctoPrintPrintsTheFileSentAndRefusalsComeBeforeAnyByte() throws {
        let (octoprint, key) = try RealOctoPrint.start(in: self)
        let folder = try makeTemporaryDirectory()
        // A dwell keeps the virtual printer busy with it while the test looks.
        let file = folder.appendingPathComponent("dwell.gcode")
        try Data("G28\nG4 S120\nG1 X10 Y10\n".utf8).write(to: file)
        let url = "octoprint://127.0.0.1:\(octoprint.port)?key=\(key)"

        let run = try CommandRun.product("layerwatch", ["print", file.path, url, "--yes"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("127.0.0.1 — Printing “dwell.gcode”."), run.stdout)
        let answer = try XCTUnwrap(octoprint.perform(["cmd": "job"])?.fields["job"] as? [String: Any], "OctoPrint's /api/job")
        XCTAssertEqual(answer["state"] as? String, "Printing")
        XCTAssertEqual(((answer["job"] as? [String: Any])?["file"] as? [String: Any])?["name"] as? String, "dwell.gcode")

        let second = folder.appendingPathComponent("second.gcode")
        try Data("G28\n".utf8).write(to: second)
        let busy = try CommandRun.product("layerwatch", ["print", second.path, url, "--yes"])
        XCTAssertEqual(busy.status, 11, busy.stdout)
        XCTAssertTrue(busy.stdout.contains("is printing: it can take a file when the print has ended."), busy.stdout)

        let wrongKey = try CommandRun.product("layerwatch", ["print", second.path, "octoprint://127.0.0.1:\(octoprint.port)?key=WRONG", "--yes"])
        XCTAssertEqual(wrongKey.status, 1, wrongKey.stdout)
        XCTAssertTrue(wrongKey.stdout.contains("API key was rejected"), wrongKey.stdout)
        XCTAssertFalse(wrongKey.stdout.contains("WRONG"))

        let names = octoprint.perform(["cmd": "files"])?.fields["names"] as? [String]
        XCTAssertEqual(names, ["dwell.gcode"], "the refused file never reached OctoPrint")
    }
}
