import Foundation
import TestSupport
import XCTest

/// `layerwatch status|pause|stop|cameras flashforge://…` as a user runs them, against the fake
/// Flashforge HTTP API (Tests/Servers/flashforge_server.py): the check code from standard input or
/// a saved printer (`--printer`), never echoed; a wrong one said in the printer's words.
final class FlashforgeStatusCommandTests: XCTestCase {
    static let serial = "SNMOMC9900001", code = "31415926"

    private func printer() throws -> TestServer {
        let server = try TestServer(script: "flashforge_server.py", arguments: ["--serial", Self.serial, "--check-code", Self.code])
        addTeardownBlock { server.stop() }
        return server
    }

    func testStatusPauseAndStopWithTheCheckCodeFromStandardInput() throws {
        let printer = try printer()
        XCTAssertEqual(printer.perform(["cmd": "set", "detail": [
            "status": "printing", "printFileName": "/data/gear_PLA.gx", "printProgress": 0.37, "printLayer": 81,
            "targetPrintLayer": 220, "estimatedTime": 4500, "printDuration": 2700, "rightTemp": 220.1, "rightTargetTemp": 220,
            "platTemp": 55.0, "platTargetTemp": 55, "lightStatus": "open", "cameraStreamUrl": "http://127.0.0.1:8080/?action=stream",
        ]])?.name, "done")
        let url = "flashforge://127.0.0.1:\(printer.port)?serial=\(Self.serial)"
        let json = try CommandRun.product("layerwatch", ["status", url, "--json", "--code-from-stdin"], input: Self.code + "\n")
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(object["state"] as? String, "printing")
        XCTAssertEqual(object["job"] as? String, "gear_PLA.gx")
        XCTAssertEqual(try XCTUnwrap(object["progress"] as? Double), 37, accuracy: 1e-9)
        XCTAssertEqual(object["layer"] as? Int, 81)
        XCTAssertEqual(object["totalLayers"] as? Int, 220)
        XCTAssertEqual(object["timeLeftSeconds"] as? Int, 4500)
        XCTAssertEqual(object["chamberLight"] as? Bool, true)
        XCTAssertEqual((object["nozzles"] as? [[String: Any]])?.first?["current"] as? Double, 220.1)
        XCTAssertFalse(json.stdout.contains(Self.code) || json.stderr.contains(Self.code), "the check code is never shown")

        let text = try CommandRun.product("layerwatch", ["status", url, "--code-from-stdin"], input: Self.code + "\n")
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        for expected in ["state      Printing", "job        gear_PLA.gx", "progress   37 % (layer 81 of 220)", "light      on"] {
            XCTAssertTrue(text.stdout.contains(expected), "\(expected) missing from\n\(text.stdout)")
        }

        let cameras = try CommandRun.product("layerwatch", ["cameras", url, "--json", "--code-from-stdin"], input: Self.code + "\n")
        XCTAssertEqual(cameras.status, 0, cameras.stdout + cameras.stderr)
        XCTAssertTrue(cameras.stdout.contains("http://127.0.0.1:8080/?action=stream"), cameras.stdout)

        let pause = try CommandRun.product("layerwatch", ["pause", url, "--json", "--code-from-stdin"], input: Self.code + "\n")
        XCTAssertEqual(pause.status, 0, pause.stdout + pause.stderr)
        let paused = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pause.stdout.utf8)) as? [String: Any], pause.stdout)
        XCTAssertEqual(paused["outcome"] as? String, "done")
        let stop = try CommandRun.product("layerwatch", ["stop", url, "--yes", "--code-from-stdin"], input: Self.code + "\n")
        XCTAssertEqual(stop.status, 0, stop.stdout + stop.stderr)
        XCTAssertTrue(stop.stdout.contains("Cancel Print"), "FlashForge's word\n" + stop.stdout)
        let actions = printer.events(named: "request").compactMap { (($0.fields["payload"] as? [String: Any])?["args"] as? [String: Any])?["action"] as? String }
        XCTAssertEqual(actions, ["pause", "cancel"])
    }

    func testAWrongCheckCodeIsSaidInThePrintersWords() throws {
        let printer = try printer()
        let url = "flashforge://127.0.0.1:\(printer.port)?serial=\(Self.serial)"
        let wrong = try CommandRun.product("layerwatch", ["status", url, "--code-from-stdin"], input: "27182818\n")
        XCTAssertEqual(wrong.status, 3, wrong.stdout + wrong.stderr)
        XCTAssertTrue((wrong.stdout + wrong.stderr).contains("check code"), wrong.stdout + wrong.stderr)
        XCTAssertFalse((wrong.stdout + wrong.stderr).contains("27182818"), "the code is never shown")
        let missing = try CommandRun.product("layerwatch", ["status", url])
        XCTAssertEqual(missing.status, 2, missing.stdout + missing.stderr)
        XCTAssertTrue(missing.stderr.contains("check code"), missing.stderr)
    }

    func testASavedFlashforgePrintersStatusAndCamera() throws {
        let printer = try printer()
        let camera = try TestServer(script: "mjpeg_server.py")
        addTeardownBlock { camera.stop() }
        XCTAssertEqual(printer.perform(["cmd": "set", "detail": ["status": "paused", "printFileName": "vase.gx", "printProgress": 0.64]])?.name, "done")
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
            {"formatVersion": 3, "printers": [
             {"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FE", "name": "5M", "kind": "flashforge", "host": "127.0.0.1",
              "apiPort": \(printer.port), "serial": "\(Self.serial)", "accessCode": "\(Self.code)",
              "cameras": [{"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FD", "url": "http://127.0.0.1:\(camera.port)/?action=stream"}]}]}
            """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        let status = try CommandRun.product("layerwatch", ["status", "--printer", "5M"], environment: environment)
        XCTAssertEqual(status.status, 0, status.stdout + status.stderr)
        for expected in ["flashforge://127.0.0.1:\(printer.port)?serial=\(Self.serial)", "state      Paused", "job        vase.gx", "progress   64 %"] {
            XCTAssertTrue(status.stdout.contains(expected), "\(expected) missing from\n\(status.stdout)")
        }
        XCTAssertFalse(status.stdout.contains(Self.code), status.stdout)
        let probe = try CommandRun.product("layerwatch", ["probe", "--printer", "5M", "--json"], environment: environment)
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any], probe.stdout)
        XCTAssertEqual(report["codec"] as? String, "mjpeg", probe.stdout)
        XCTAssertNotNil(camera.waitFor("request") { $0.string("path") == "/?action=stream" }, "its camera by URL")
        let resume = try CommandRun.product("layerwatch", ["resume", "--printer", "5M", "--json"], environment: environment)
        XCTAssertEqual(resume.status, 0, resume.stdout + resume.stderr)
        XCTAssertTrue(resume.stdout.contains("\"done\""), resume.stdout)
    }

    /// `probe flashforge://HOST?serial=SN` probes the camera the printer names (`cameraStreamUrl`),
    /// the check code from standard input.
    func testProbeByThePrintersAddressDecodesTheCameraItNames() throws {
        let printer = try printer()
        let camera = try TestServer(script: "mjpeg_server.py")
        addTeardownBlock { camera.stop() }
        XCTAssertEqual(printer.perform(["cmd": "set", "detail": ["cameraStreamUrl": "http://127.0.0.1:\(camera.port)/?action=stream"]])?.name, "done")
        let url = "flashforge://127.0.0.1:\(printer.port)?serial=\(Self.serial)"
        let probe = try CommandRun.product("layerwatch", ["probe", url, "--code-from-stdin", "--frames", "3", "--json"], input: Self.code + "\n")
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any], probe.stdout)
        XCTAssertEqual(report["codec"] as? String, "mjpeg", probe.stdout)
        XCTAssertFalse((probe.stdout + probe.stderr).contains(Self.code), "the code is never shown")
        let wrong = try CommandRun.product("layerwatch", ["probe", url, "--code-from-stdin"], input: "27182818\n")
        XCTAssertEqual(wrong.status, 3, wrong.stdout + wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("check code"), wrong.stderr)
    }
}
