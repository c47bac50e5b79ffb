import Foundation
import TestSupport
import XCTest

/// `layerwatch status creality://…` and the print controls as a user runs them, against the fake
/// Creality status websocket (Tests/Servers/creality_ws_server.py); a saved Creality printer's
/// status and camera (`--printer`), the fake K1C on a loopback address of its own with the
/// printer's own ports (9999, and 8080 for its MJPEG camera).
final class CrealityStatusCommandTests: XCTestCase {
    func testStatusAsJSONAndTextThenPauseAndStop() throws {
        let printer = try TestServer(script: "creality_ws_server.py")
        defer { printer.stop() }
        printer.send(["cmd": "set", "fields": ["state": 1, "printFileName": "/usr/data/printer_data/gcodes/gear_PLA_2h5m.gcode",
                                               "printProgress": 37, "layer": 81, "TotalLayer": 220, "printLeftTime": 4500,
                                               "printJobTime": 2700, "nozzleTemp": "220.1", "targetNozzleTemp": 220,
                                               "bedTemp0": "55.0", "targetBedTemp0": 55, "boxTemp": 33, "lightSw": 1]])
        XCTAssertNotNil(printer.waitFor("done"))
        let url = "creality://127.0.0.1:\(printer.port)"
        let json = try CommandRun.product("layerwatch", ["status", url, "--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(object["endpoint"] as? String, url)
        XCTAssertEqual(object["state"] as? String, "printing")
        XCTAssertEqual(object["job"] as? String, "gear_PLA_2h5m.gcode")
        XCTAssertEqual(object["progress"] as? Double, 37)
        XCTAssertEqual(object["layer"] as? Int, 81)
        XCTAssertEqual(object["totalLayers"] as? Int, 220)
        XCTAssertEqual(object["timeLeftSeconds"] as? Int, 4500)
        XCTAssertEqual(object["elapsedSeconds"] as? Int, 2700)
        XCTAssertEqual(object["chamberLight"] as? Bool, true)
        let nozzles = try XCTUnwrap(object["nozzles"] as? [[String: Any]])
        XCTAssertEqual(nozzles.first?["current"] as? Double, 220.1)
        XCTAssertEqual((object["bed"] as? [String: Any])?["target"] as? Double, 55)
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
        XCTAssertEqual(paused["state"] as? String, "paused")
        let stop = try CommandRun.product("layerwatch", ["stop", url, "--yes"])
        XCTAssertEqual(stop.status, 0, stop.stdout + stop.stderr)
        XCTAssertTrue(stop.stdout.contains("Stop Print"), "Creality Print's word\n" + stop.stdout)
        let sets = printer.events(named: "request").filter { $0.string("method") == "set" }.compactMap { $0.fields["params"] as? [String: Int] }
        XCTAssertEqual(sets, [["pause": 1], ["stop": 1]])

        let refused = try CommandRun.product("layerwatch", ["status", "creality://127.0.0.1:\(closedLoopbackPort())", "--timeout", "5"])
        XCTAssertEqual(refused.status, 4, refused.stdout + refused.stderr)
    }

    func testASavedCrealityPrintersStatusAndOwnCamera() throws {
        let host = "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
        let printer = try TestServer(script: "creality_ws_server.py", arguments: ["--bind", host, "--port", "9999"])
        defer { printer.stop() }
        let camera = try TestServer(script: "mjpeg_server.py", arguments: ["--bind", host, "--port", "8080"])
        defer { camera.stop() }
        printer.send(["cmd": "set", "fields": ["state": 5, "printFileName": "/usr/data/printer_data/gcodes/vase.gcode", "printProgress": 64]])
        XCTAssertNotNil(printer.waitFor("done"))
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
            {"formatVersion": 3, "printers": [
             {"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "K1C", "kind": "creality", "family": "k1", "host": "\(host)"}]}
            """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]

        let status = try CommandRun.product("layerwatch", ["status", "--printer", "K1C"], environment: environment)
        XCTAssertEqual(status.status, 0, status.stdout + status.stderr)
        for expected in ["creality://\(host):9999", "state      Paused", "job        vase.gcode", "progress   64 %"] {
            XCTAssertTrue(status.stdout.contains(expected), "\(expected) missing from\n\(status.stdout)")
        }
        let probe = try CommandRun.product("layerwatch", ["probe", "--printer", "K1C", "--json"], environment: environment)
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any], probe.stdout)
        XCTAssertEqual(report["url"] as? String, "http://\(host):8080/?action=stream", "the K1 family's camera")
        XCTAssertEqual(report["codec"] as? String, "mjpeg")
        XCTAssertNotNil(camera.waitFor("request") { $0.string("path") == "/?action=stream" })
    }
}
