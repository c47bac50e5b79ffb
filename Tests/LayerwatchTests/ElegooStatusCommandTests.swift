import Foundation
import TestSupport
import XCTest

/// `layerwatch status|pause|resume|stop|cameras elegoo://…` as a user runs them, against the fake
/// Centauri Carbon (Tests/Servers/elegoo_sdcp_server.py); a saved Elegoo printer's status and own
/// camera (`--printer`, `probe`), the fake on a loopback address of its own with the printer's
/// own ports (3030, and 3031 for its MJPEG camera).
final class ElegooStatusCommandTests: XCTestCase {
    func testStatusAsJSONAndTextThenPauseResumeAndStop() throws {
        let printer = try TestServer(script: "elegoo_sdcp_server.py", arguments: ["--interval", "0.3"])
        defer { printer.stop() }
        XCTAssertEqual(printer.perform(["cmd": "set", "fields": [
            "TempOfNozzle": 220.1, "TempTargetNozzle": 220, "TempOfHotbed": 55.0, "TempTargetHotbed": 55, "TempOfBox": 33,
            "LightStatus": ["SecondLight": 1],
            "PrintInfo": ["Status": 13, "Filename": "/local/gear_PLA_2h5m.gcode", "Progress": 37, "CurrentLayer": 81, "TotalLayer": 220,
                          "CurrentTicks": 2700, "TotalTicks": 7200]]])?.name, "done")
        let url = "elegoo://127.0.0.1:\(printer.port)"
        let json = try CommandRun.product("layerwatch", ["status", url, "--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(object["endpoint"] as? String, url)
        XCTAssertEqual(object["state"] as? String, "printing")
        XCTAssertEqual(object["job"] as? String, "gear_PLA_2h5m.gcode")
        XCTAssertEqual(object["progress"] as? Double, 37)
        XCTAssertEqual(object["layer"] as? Int, 81)
        XCTAssertEqual(object["totalLayers"] as? Int, 220)
        XCTAssertEqual(object["timeLeftSeconds"] as? Int, 4500, "TotalTicks − CurrentTicks")
        XCTAssertEqual(object["chamberLight"] as? Bool, true)
        XCTAssertEqual((object["nozzles"] as? [[String: Any]])?.first?["current"] as? Double, 220.1)
        XCTAssertEqual((object["chamber"] as? [String: Any])?["current"] as? Double, 33)

        let text = try CommandRun.product("layerwatch", ["status", url])
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        for expected in ["state      Printing", "job        gear_PLA_2h5m.gcode", "progress   37 % (layer 81 of 220)", "light      on"] {
            XCTAssertTrue(text.stdout.contains(expected), "\(expected) missing from\n\(text.stdout)")
        }

        let pause = try CommandRun.product("layerwatch", ["pause", url, "--json"])
        XCTAssertEqual(pause.status, 0, pause.stdout + pause.stderr)
        let paused = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pause.stdout.utf8)) as? [String: Any], pause.stdout)
        XCTAssertEqual(paused["outcome"] as? String, "done")
        let resume = try CommandRun.product("layerwatch", ["resume", url])
        XCTAssertEqual(resume.status, 0, resume.stdout + resume.stderr)
        let stop = try CommandRun.product("layerwatch", ["stop", url, "--yes"])
        XCTAssertEqual(stop.status, 0, stop.stdout + stop.stderr)
        let commands = printer.events(named: "request").compactMap { $0.int("cmd") }.filter { [129, 130, 131].contains($0) }
        XCTAssertEqual(commands, [129, 131, 130], "pause, continue, stop as SDCP commands")

        XCTAssertEqual(printer.perform(["cmd": "ack", "command": 129, "ack": 1])?.name, "done")
        XCTAssertEqual(printer.perform(["cmd": "set", "fields": ["PrintInfo": ["Status": 13, "Filename": "/local/b.gcode"]]])?.name, "done")
        let refused = try CommandRun.product("layerwatch", ["pause", url])
        XCTAssertNotEqual(refused.status, 0, refused.stdout + refused.stderr)
        XCTAssertTrue((refused.stdout + refused.stderr).contains("the Elegoo printer cannot do that now"), refused.stdout + refused.stderr)

        let cameras = try CommandRun.product("layerwatch", ["cameras", url])
        XCTAssertEqual(cameras.status, 0, cameras.stdout + cameras.stderr)
        let port = try XCTUnwrap(printer.events(named: "ready").first?.int("camera_port"))
        XCTAssertTrue(cameras.stdout.contains("http://127.0.0.1:\(port)/video"), cameras.stdout)

        let closed = try CommandRun.product("layerwatch", ["status", "elegoo://127.0.0.1:\(closedLoopbackPort())", "--timeout", "5"])
        XCTAssertEqual(closed.status, 4, closed.stdout + closed.stderr)
    }

    func testASavedElegooPrintersStatusAndOwnCamera() throws {
        let host = "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
        let printer = try TestServer(script: "elegoo_sdcp_server.py", arguments: ["--bind", host, "--port", "3030", "--camera-port", "3031"])
        defer { printer.stop() }
        XCTAssertEqual(printer.perform(["cmd": "set", "fields": ["PrintInfo": ["Status": 6, "Filename": "/local/vase.gcode", "Progress": 64]]])?.name, "done")
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
            {"formatVersion": 3, "printers": [
             {"id": "6F9619FF-8B86-D011-B42D-00CF4FC964AA", "name": "Carbon", "kind": "elegoo", "host": "\(host)"}]}
            """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]

        // Probed first, before any status connection: the probe turns the camera on itself (Cmd 386).
        let probe = try CommandRun.product("layerwatch", ["probe", "--printer", "Carbon", "--json"], environment: environment)
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any], probe.stdout)
        XCTAssertEqual(report["url"] as? String, "http://\(host):3031/video", "its own camera")
        XCTAssertEqual(report["codec"] as? String, "mjpeg")
        XCTAssertNotNil(printer.waitFor("video"), "the MJPEG stream with its malformed header was read")
        XCTAssertEqual(printer.events(named: "video-refused").count, 0)
        XCTAssertEqual(printer.events(named: "request").first?.int("cmd"), 386)

        let status = try CommandRun.product("layerwatch", ["status", "--printer", "Carbon"], environment: environment)
        XCTAssertEqual(status.status, 0, status.stdout + status.stderr)
        for expected in ["elegoo://\(host):3030", "state      Paused", "job        vase.gcode", "progress   64 %"] {
            XCTAssertTrue(status.stdout.contains(expected), "\(expected) missing from\n\(status.stdout)")
        }
    }

    /// `probe elegoo://HOST` probes the camera the printer lists, turned on first (Cmd 386): the
    /// user types the printer's address, not its camera's.
    func testProbeByThePrintersAddressDecodesItsCamera() throws {
        let printer = try TestServer(script: "elegoo_sdcp_server.py", arguments: ["--interval", "0.3"])
        defer { printer.stop() }
        let probe = try CommandRun.product("layerwatch", ["probe", "elegoo://127.0.0.1:\(printer.port)", "--frames", "3", "--json"])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any], probe.stdout)
        XCTAssertEqual(report["codec"] as? String, "mjpeg", probe.stdout)
        XCTAssertTrue(printer.events(named: "request").contains { $0.int("cmd") == 386 }, "the camera turned on first")
        let closed = try CommandRun.product("layerwatch", ["probe", "elegoo://127.0.0.1:\(closedLoopbackPort())"])
        XCTAssertEqual(closed.status, 4, "a refused printer is said as refused: " + closed.stdout + closed.stderr)
    }
}
