import Foundation
import TestSupport
import XCTest

/// The `layerwatch` command line outside the window: help, version, and a bad URL refused before
/// anything starts.
final class CommandLineTests: XCTestCase {
    func testVersionAndHelp() throws {
        let version = try CommandRun.product("layerwatch", ["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0.1.0")

        let help = try CommandRun.product("layerwatch", ["--help"])
        XCTAssertEqual(help.status, 0)
        for word in ["probe", "view", "3D-printer cameras"] {
            XCTAssertTrue(help.stdout.contains(word), "--help mentions \(word): \(help.stdout)")
        }
    }

    func testInvalidURLIsRefusedWithAMessageAndNoWindow() throws {
        let run = try CommandRun.product("layerwatch", ["rtsp://printer:99999/live"], timeout: 10)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("Port 99999 is not valid"), run.stderr)
    }
}
