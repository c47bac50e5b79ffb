import Foundation
import TestSupport
import XCTest

/// `layerwatch status` and `layerwatch cameras` as a user runs them, against the real test peers
/// (mosquitto with a fake Bambu printer, Moonraker, OctoPrint): what they print, their exit codes,
/// and that codes and keys never appear.
final class StatusCommandTests: XCTestCase {
    func testBambuStatusAsTextAndJSONWithoutTheCode() throws {
        let printer = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", "Qz81Ww07", "--partial"])
        defer { printer.stop() }
        let serial = try XCTUnwrap(printer.waitFor("ready")?.string("serial"))
        printer.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy", "mc_percent": 42,
                                              "layer_num": 57, "total_layer_num": 180, "mc_remaining_time": 72,
                                              "nozzle_temper": 219.6, "nozzle_target_temper": 220]])
        XCTAssertNotNil(printer.waitFor("done"))
        let url = "bambu://bblp:Qz81Ww07@127.0.0.1:\(printer.port)?serial=\(serial)"
        let text = try CommandRun.product("layerwatch", ["status", url])
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        for expected in ["state      Printing", "job        Benchy", "progress   42 % (layer 57 of 180)", "time left  1 h 12 min (ends ",
                         "nozzle     220 / 220 °C", "light      off", "bambu://bblp:***@127.0.0.1"] {
            XCTAssertTrue(text.stdout.contains(expected), "\(expected) missing from\n\(text.stdout)")
        }
        let json = try CommandRun.product("layerwatch", ["status", url, "--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["state"] as? String, "printing")
        XCTAssertEqual(object["progress"] as? Double, 42)
        XCTAssertEqual(object["timeLeftSeconds"] as? Int, 72 * 60)
        XCTAssertEqual(object["chamberLight"] as? Bool, false)
        let wrong = try CommandRun.product("layerwatch", ["status", "bambu://bblp:Xx00Yy11@127.0.0.1:\(printer.port)?serial=\(serial)"])
        XCTAssertEqual(wrong.status, 3, wrong.stdout)
        XCTAssertTrue(wrong.stdout.contains("authRejected"), wrong.stdout)
        // Without a serial the printer's certificate gives it.
        let noSerial = try CommandRun.product("layerwatch", ["status", "bambu://bblp:Qz81Ww07@127.0.0.1:\(printer.port)"])
        XCTAssertEqual(noSerial.status, 0, noSerial.stdout + noSerial.stderr)
        XCTAssertTrue(noSerial.stdout.contains("job        Benchy"), noSerial.stdout)
        for run in [text, json, wrong, noSerial] {
            XCTAssertFalse((run.stdout + run.stderr).contains("Qz81Ww07") || (run.stdout + run.stderr).contains("Xx00Yy11"))
        }
    }

    func testBambuAlertsAndThePrintErrorInWordsWithTheirPages() throws {
        let printer = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", "Qz81Ww07", "--partial"])
        defer { printer.stop() }
        let serial = try XCTUnwrap(printer.waitFor("ready")?.string("serial"))
        printer.send(["cmd": "set", "print": ["gcode_state": "FAILED", "subtask_name": "Benchy", "print_error": 0x0700_8011,
                                              "hms": [["attr": 0x0300_1000, "code": 0x0002_0002], ["attr": 0x0700_4300, "code": 0x0002_0099]]]])
        XCTAssertNotNil(printer.waitFor("done"))
        let url = "bambu://bblp:Qz81Ww07@127.0.0.1:\(printer.port)?serial=\(serial)"
        let json = try CommandRun.product("layerwatch", ["status", url, "--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let hms = try XCTUnwrap(object["hms"] as? [[String: Any]], json.stdout)
        XCTAssertEqual(hms.count, 2)
        XCTAssertEqual(hms[0]["code"] as? String, "0300_1000_0002_0002")
        XCTAssertEqual(hms[0]["severity"] as? String, "serious")
        XCTAssertEqual(hms[0]["module"] as? String, "motion_controller")
        XCTAssertEqual(hms[0]["text"] as? String, "The 1st order mechanical resonance mode of X axis differs much from last calibration, "
                       + "please re-run the machine calibration later.")
        XCTAssertEqual(hms[0]["url"] as? String, "https://e.bambulab.com/index.php?e=0300100000020002&s=device_hms&lang=en")
        XCTAssertEqual(hms[1]["module"] as? String, "ams")
        XCTAssertTrue(hms[1]["text"] is NSNull, "no source words 0700_4300_0002_0099: text is null, not made up")
        XCTAssertEqual(Set(hms[1].keys), ["code", "severity", "module", "text", "url"])
        let printError = try XCTUnwrap(object["printError"] as? [String: Any], json.stdout)
        XCTAssertEqual(printError["code"] as? String, "0700_8011")
        XCTAssertEqual(printError["module"] as? String, "ams")
        XCTAssertTrue(printError["severity"] is NSNull)
        XCTAssertEqual(printError["url"] as? String, "https://wiki.bambulab.com/en/hms/error-code")
        XCTAssertEqual(object["error"] as? String, "AMS filament ran out. Please insert a new filament into the same AMS slot. (0700_8011)")

        let text = try CommandRun.product("layerwatch", ["status", url])
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        for expected in ["error      AMS filament ran out. Please insert a new filament into the same AMS slot. (0700_8011)",
                         "           https://wiki.bambulab.com/en/hms/error-code",
                         "alerts     The 1st order mechanical resonance mode of X axis",
                         "           https://e.bambulab.com/index.php?e=0300100000020002&s=device_hms&lang=en",
                         "           HMS 0700_4300_0002_0099 — AMS, Serious"] {
            XCTAssertTrue(text.stdout.contains(expected), "\(expected) missing from\n\(text.stdout)")
        }
    }

    func testWatchPrintsEveryChangeAsJSONLines() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        defer { moonraker.stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 3) {
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "paused", "filename": "cube.gcode", "message": "Filament runout"]]])
        }
        // --watch runs until interrupted, as a user ends it with Ctrl+C.
        let process = Process()
        process.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        process.arguments = ["status", "moonraker://127.0.0.1:\(moonraker.port)", "--watch", "--json"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        Thread.sleep(forTimeInterval: 7)
        process.interrupt()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.map { $0["state"] as? String }, ["idle", "paused"], stdout)
        XCTAssertEqual(lines.last?["error"] as? String, "Filament runout")
    }

    func testOctoPrintKeysAndTheCameraList() throws {
        let octoprint = try TestServer(script: "octoprint_server.py", arguments: ["--api-key", "OCTOKEY123456"])
        defer { octoprint.stop() }
        let ok = try CommandRun.product("layerwatch", ["status", "octoprint://127.0.0.1:\(octoprint.port)?key=OCTOKEY123456"])
        XCTAssertEqual(ok.status, 0, ok.stdout + ok.stderr)
        XCTAssertTrue(ok.stdout.contains("state      Idle"), ok.stdout)
        let wrong = try CommandRun.product("layerwatch", ["status", "octoprint://127.0.0.1:\(octoprint.port)?key=NOTTHEKEY9", "--json"])
        XCTAssertEqual(wrong.status, 3, wrong.stdout)
        let cameras = try CommandRun.product("layerwatch", ["cameras", "octoprint://127.0.0.1:\(octoprint.port)?key=OCTOKEY123456", "--json"])
        XCTAssertEqual(cameras.status, 0, cameras.stdout + cameras.stderr)
        let list = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(cameras.stdout.utf8)) as? [String: Any])?["cameras"] as? [[String: Any]])
        XCTAssertFalse(list.isEmpty)
        XCTAssertTrue(list.allSatisfy { ($0["url"] as? String)?.hasPrefix("http") == true }, cameras.stdout)
        for run in [ok, wrong, cameras] {
            XCTAssertFalse((run.stdout + run.stderr).contains("OCTOKEY123456") || (run.stdout + run.stderr).contains("NOTTHEKEY9"))
        }
        let refused = try CommandRun.product("layerwatch", ["status", "moonraker://127.0.0.1:\(closedLoopbackPort())"])
        XCTAssertEqual(refused.status, 4, refused.stdout)
        let invalid = try CommandRun.product("layerwatch", ["status", "ftp://printer"])
        XCTAssertEqual(invalid.status, 2, invalid.stderr)
    }

    func testASavedPrintersStatusWithItsKeyOffTheCommandLine() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: ["--api-key", "MOONKEY42"])
        defer { moonraker.stop() }
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
            {"formatVersion": 2, "printers": [
             {"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Voron", "kind": "klipper", "host": "127.0.0.1",
              "apiPort": \(moonraker.port), "url": "http://127.0.0.1/webcam/?action=stream", "accessCode": "MOONKEY42"},
             {"id": "7F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Door cam", "kind": "generic", "url": "http://127.0.0.1/x"}]}
            """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        let run = try CommandRun.product("layerwatch", ["status", "--printer", "Voron"], environment: environment)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("state      Idle"), run.stdout)
        XCTAssertTrue(run.stdout.contains("moonraker://127.0.0.1:\(moonraker.port)?key=***"), run.stdout)
        XCTAssertFalse((run.stdout + run.stderr).contains("MOONKEY42"))
        let camera = try CommandRun.product("layerwatch", ["status", "--printer", "Door cam"], environment: environment)
        XCTAssertEqual(camera.status, 2)
        XCTAssertTrue(camera.stderr.contains("has no print status"), camera.stderr)
    }

    /// A Klipper printer saved without a camera: `status` shows its print, `probe` and `record` say
    /// in words that it has no camera (no crash, no camera tried).
    func testASavedPrinterWithoutACamera() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        defer { moonraker.stop() }
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
            {"formatVersion": 3, "printers": [
             {"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Voron", "kind": "klipper", "host": "127.0.0.1",
              "apiPort": \(moonraker.port), "cameras": []}]}
            """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        let run = try CommandRun.product("layerwatch", ["status", "--printer", "Voron"], environment: environment)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("state      Idle"), run.stdout)
        for command in [["probe", "--printer", "Voron"], ["record", "--printer", "Voron", "--seconds", "1", "-o", config.appendingPathComponent("x.mkv").path]] {
            let refused = try CommandRun.product("layerwatch", command, environment: environment)
            XCTAssertEqual(refused.status, 2, "\(command): \(refused.stdout) \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("“Voron” has no camera: it is watched without a picture"), refused.stderr)
        }
    }

    func testGo2RTCStreamsListAsRTSPCamerasWithoutTheirSources() throws {
        let go2rtc = try TestServer(script: "go2rtc_server.py", arguments: ["--basic-auth", "farm:Gr33nH0use"])
        defer { go2rtc.stop() }
        go2rtc.send(["cmd": "streams", "streams": ["x1c": ["rtspx://bblp:Qz81Ww07@192.0.2.10:322/streaming/live/1"],
                                                   "door cam": ["rtsp://192.0.2.12/live"]]])
        XCTAssertNotNil(go2rtc.waitFor("done"))
        let run = try CommandRun.product("layerwatch", ["cameras", "go2rtc://farm:Gr33nH0use@127.0.0.1:\(go2rtc.port)", "--json"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let cameras = try XCTUnwrap(object["cameras"] as? [[String: Any]])
        XCTAssertEqual(cameras.map { $0["name"] as? String }, ["door cam", "x1c"])
        XCTAssertEqual(cameras.map { $0["url"] as? String }, ["rtsp://127.0.0.1:8554/door%20cam", "rtsp://127.0.0.1:8554/x1c"])
        XCTAssertEqual(object["endpoint"] as? String, "go2rtc://farm:***@127.0.0.1:\(go2rtc.port)")
        let wrong = try CommandRun.product("layerwatch", ["cameras", "go2rtc://farm:Wr0ngPass@127.0.0.1:\(go2rtc.port)"])
        XCTAssertEqual(wrong.status, 3, wrong.stdout)
        go2rtc.send(["cmd": "mode", "mode": "garbage"])
        XCTAssertNotNil(go2rtc.waitFor("done") { $0.string("mode") == "garbage" })
        let garbage = try CommandRun.product("layerwatch", ["cameras", "go2rtc://farm:Gr33nH0use@127.0.0.1:\(go2rtc.port)"])
        XCTAssertEqual(garbage.status, 9, garbage.stdout)
        for output in [run, wrong, garbage].map({ $0.stdout + $0.stderr }) {
            XCTAssertFalse(output.contains("Gr33nH0use") || output.contains("Wr0ngPass") || output.contains("Qz81Ww07"), output)
        }
    }

    /// A host's camera list may carry a camera's password (`rtsp://admin:PASSWORD@…`, `?password=`):
    /// `cameras` masks it in its text and JSON, as every URL Layerwatch shows.
    func testPasswordsInAHostsCameraListAreMasked() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        defer { moonraker.stop() }
        let entry: [String: Any] = ["service": "mjpegstreamer", "enabled": true, "rotation": 0,
                                    "flip_horizontal": false, "flip_vertical": false, "snapshot_url": ""]
        moonraker.send(["cmd": "webcams", "list": [
            entry.merging(["name": "Door", "stream_url": "rtsp://admin:Hunter2Pw@127.0.0.1:8554/door"]) { $1 },
            entry.merging(["name": "Bed", "stream_url": "http://127.0.0.1:8080/stream.mjpg?user=cam&password=Tr0ub4dor"]) { $1 },
        ]])
        XCTAssertNotNil(moonraker.waitFor("done"))
        let target = "moonraker://127.0.0.1:\(moonraker.port)"
        let text = try CommandRun.product("layerwatch", ["cameras", target])
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        XCTAssertTrue(text.stdout.contains("Door: rtsp://admin:***@127.0.0.1:8554/door"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Bed: http://127.0.0.1:8080/stream.mjpg?user=cam&password=***"), text.stdout)
        let json = try CommandRun.product("layerwatch", ["cameras", target, "--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let cameras = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["cameras"] as? [[String: Any]])
        XCTAssertEqual(cameras.map { $0["url"] as? String },
                       ["rtsp://admin:***@127.0.0.1:8554/door", "http://127.0.0.1:8080/stream.mjpg?user=cam&password=***"])
        for output in [text, json].map({ $0.stdout + $0.stderr }) {
            XCTAssertFalse(output.contains("Hunter2Pw") || output.contains("Tr0ub4dor"), output)
        }
    }
}
