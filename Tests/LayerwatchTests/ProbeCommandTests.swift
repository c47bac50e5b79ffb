import Foundation
import TestSupport
import XCTest

/// `layerwatch probe` as a user runs it when a camera doesn't show: what it prints, its exit codes,
/// and that the access code never appears in its output.
final class ProbeCommandTests: XCTestCase {
    func testProbeReportsALiveRTSPSStreamWithoutTheAccessCode() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--tls", "--user", "bblp", "--password", "Zx81Qq09", "--width", "320", "--height", "240"])
        let url = "rtsps://bblp:Zx81Qq09@127.0.0.1:\(server.port)/streaming/live/1"
        let run = try CommandRun.product("layerwatch", ["probe", url, "--frames", "10"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("resolution   320×240"), run.stdout)
        XCTAssertTrue(run.stdout.contains("codec        h264"), run.stdout)
        XCTAssertTrue(run.stdout.contains("live"), run.stdout)
        XCTAssertTrue(run.stdout.contains("first frame"), run.stdout)
        XCTAssertTrue(run.stdout.contains("stream open"), run.stdout)
        XCTAssertTrue(run.stdout.contains("rtsps://bblp:***@127.0.0.1"), run.stdout)
        XCTAssertFalse((run.stdout + run.stderr).contains("Zx81Qq09"))
    }

    func testProbeJSONCarriesTheClassifiedErrorAndExitCode() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--tls", "--user", "bblp", "--password", "12345678"])
        let url = "rtsps://bblp:Wr0ngC0d@127.0.0.1:\(server.port)/streaming/live/1"
        let run = try CommandRun.product("layerwatch", ["probe", url, "--json"])
        XCTAssertEqual(run.status, 3, run.stdout + run.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["ok"] as? Bool, false)
        let error = try XCTUnwrap(report["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "authRejected")
        XCTAssertEqual(error["message"] as? String, "Access code rejected — check it on the printer's screen.")
        XCTAssertFalse((run.stdout + run.stderr).contains("Wr0ngC0d"))
    }

    func testProbeExitCodesForRefusedAndInvalidURLs() throws {
        let refused = try CommandRun.product("layerwatch", ["probe", "rtsp://127.0.0.1:\(closedLoopbackPort())/x"])
        XCTAssertEqual(refused.status, 4, refused.stdout)
        XCTAssertTrue(refused.stdout.contains("refused"), refused.stdout)

        let invalid = try CommandRun.product("layerwatch", ["probe", "ftp://host/x"])
        XCTAssertEqual(invalid.status, 2)
        XCTAssertTrue(invalid.stderr.contains("cannot open ftp://"), invalid.stderr)
    }

    func testProbeOfTheDemoClip() throws {
        let clip = TestPaths.repository.appendingPathComponent("data/demo-printer.mp4").path
        let run = try CommandRun.product("layerwatch", ["probe", clip, "--frames", "5"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("resolution   640×360"), run.stdout)
    }
}
