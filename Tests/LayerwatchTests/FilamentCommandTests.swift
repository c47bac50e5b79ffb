import Foundation
import TestSupport
import XCTest

/// `layerwatch status` shows the filament, against the real peers: a Bambu printer's AMS trays and
/// external spool through mosquitto, and Moonraker's active Spoolman spool.
final class FilamentCommandTests: XCTestCase {
    func testBambuTraysAsTextAndJSON() throws {
        let printer = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", "Fi14Am55", "--partial"])
        defer { printer.stop() }
        let serial = try XCTUnwrap(printer.waitFor("ready")?.string("serial"))
        printer.send(["cmd": "set", "print": [
            "ams": ["ams": [["id": "0", "humidity": "4", "tray": [
                ["id": "0", "tray_type": "PLA", "tray_sub_brands": "PLA Matte", "tray_color": "FF0000FF", "remain": 80],
                ["id": "1", "tray_type": "PETG", "tray_color": "00FF0080", "remain": -1],
                ["id": "2"],
            ]]], "tray_now": "1"],
            "vt_tray": ["id": "254", "tray_type": "TPU", "tray_color": "nonsense"],
        ]])
        XCTAssertNotNil(printer.waitFor("done"))
        let url = "bambu://bblp:Fi14Am55@127.0.0.1:\(printer.port)?serial=\(serial)"
        let text = try CommandRun.product("layerwatch", ["status", url])
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        for expected in ["AMS A           humidity 2 of 5", "AMS A1          PLA · PLA Matte, FF0000FF, 80 % left",
                         "AMS A2          PETG, 00FF0080, in use", "AMS A3          Empty", "External spool  TPU\n"] {
            XCTAssertTrue((text.stdout + "\n").contains(expected), "\(expected) missing from\n\(text.stdout)")
        }

        let json = try CommandRun.product("layerwatch", ["status", url, "--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let filament = try XCTUnwrap(object["filament"] as? [[String: Any]])
        XCTAssertEqual(filament.count, 4)
        XCTAssertEqual(filament[0] as NSDictionary, ["slot": "ams", "unit": 0, "tray": 0, "type": "PLA", "name": "PLA Matte",
                                                     "color": "FF0000FF", "remaining": 80, "active": false] as NSDictionary)
        XCTAssertEqual(filament[1] as NSDictionary, ["slot": "ams", "unit": 0, "tray": 1, "type": "PETG", "color": "00FF0080",
                                                     "active": true] as NSDictionary, "remain -1 is left out")
        XCTAssertEqual(filament[2] as NSDictionary, ["slot": "ams", "unit": 0, "tray": 2, "empty": true, "active": false] as NSDictionary)
        XCTAssertEqual(filament[3] as NSDictionary, ["slot": "external", "type": "TPU", "active": false] as NSDictionary,
                       "a colour that is not RRGGBBAA is left out")
        XCTAssertEqual(object["ams"] as? NSArray, [["unit": 0, "humidityLevel": 2]] as NSArray)
    }

    func testMoonrakersSpoolmanSpoolAsJSON() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: ["--spoolman"])
        defer { moonraker.stop() }
        let json = try CommandRun.product("layerwatch", ["status", "moonraker://127.0.0.1:\(moonraker.port)", "--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["filament"] as? NSArray, [["slot": "spoolman", "spool": 2, "type": "PLA", "name": "Reactor Red",
                                                         "color": "BD0B0BFF", "remaining": 95, "remainingGrams": 950,
                                                         "active": true]] as NSArray)
        XCTAssertEqual(object["ams"] as? NSArray, [] as NSArray)
    }
}
