import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Filament as the printers report it, against the real peers: a Bambu printer's AMS units, trays,
/// external spool and active tray through mosquitto (merged from P1-style partial reports), hostile
/// AMS lists and values, and Moonraker's active Spoolman spool through its proxy — asked no more
/// than needed, and never in the way of the status when Spoolman is missing or failing.
final class FilamentStatusTests: XCTestCase {
    private let code = "27182818"

    private func bambu() throws -> (TestServer, StatusRecorder) {
        let server = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial", "--model", "P1S"])
        addTeardownBlock { server.stop() }
        let serial = try XCTUnwrap(server.waitFor("ready")?.string("serial"))
        return (server, StatusRecorder(.bambu(host: "127.0.0.1", port: server.port, accessCode: code, serial: serial)))
    }

    private func tray(_ id: Int, _ type: String, _ color: String, remain: Any, brand: String = "") -> [String: Any] {
        ["id": "\(id)", "tray_type": type, "tray_sub_brands": brand, "tray_color": color, "remain": remain,
         "tag_uid": "0000000000000000", "nozzle_temp_min": "190", "nozzle_temp_max": "230"]
    }

    func testAMSTraysExternalSpoolAndTheActiveTray() throws {
        let (server, recorder) = try bambu()
        recorder.awaitStatus(15, "the first report") { $0.state == .idle }
        server.send(["cmd": "set", "print": [
            "ams": ["ams": [
                ["id": "0", "humidity": "4", "temp": "24.5", "tray": [
                    tray(0, "PLA", "FF0000FF", remain: 80, brand: "PLA Basic"), tray(1, "PETG", "00ff00ff", remain: -1),
                    ["id": "2"], tray(3, "ABS", "0000FFFF", remain: "35"),
                ]],
                ["id": "1", "humidity": "1", "temp": "25.0", "tray": [tray(0, "TPU", "FFFF00FF", remain: 100)]],
            ], "tray_now": "5", "tray_tar": "255"],
            "vt_tray": ["id": "254", "tray_type": "PLA-CF", "tray_color": "000000FF", "remain": 0],
        ]])
        let status = try XCTUnwrap(recorder.awaitStatus(10, "the AMS") { !$0.filament.isEmpty })
        let slots = status.filament.slots
        XCTAssertEqual(slots.map(\.place), [.tray(unit: 0, tray: 0), .tray(unit: 0, tray: 1), .tray(unit: 0, tray: 2),
                                            .tray(unit: 0, tray: 3), .tray(unit: 1, tray: 0), .external])
        XCTAssertEqual(slots.map(\.type), ["PLA", "PETG", nil, "ABS", "TPU", "PLA-CF"])
        XCTAssertEqual(slots.map(\.color), ["FF0000FF", "00FF00FF", nil, "0000FFFF", "FFFF00FF", "000000FF"])
        XCTAssertEqual(slots.map(\.remaining), [80, nil, nil, 35, 100, nil], "-1 is unknown; the external spool is not measured")
        XCTAssertEqual(slots[0].name, "PLA Basic")
        XCTAssertTrue(slots[2].isEmpty, "a tray reported by its id alone is empty")
        XCTAssertEqual(slots.map(\.isActive), [false, false, false, false, false, false],
                       "tray_now 5 is unit 1, tray 1: nothing loaded there")
        XCTAssertEqual(status.filament.units.map(\.id), [0, 1])
        XCTAssertEqual(status.filament.units.map(\.humidityLevel), [2, 5], "the printer's 5 is dry: Bambu Studio's 1")

        // P1 reports only what changed: the tray feeding now, then the external spool.
        server.send(["cmd": "set", "print": ["ams": ["tray_now": "4"]]])
        let feeding = recorder.awaitStatus(10, "unit 1 tray 0 feeding") { $0.filament.active?.place == .tray(unit: 1, tray: 0) }
        XCTAssertEqual(feeding?.filament.slots.count, 6, "the merged report keeps every tray")
        XCTAssertEqual(feeding?.filament.active?.type, "TPU")
        server.send(["cmd": "set", "print": ["ams": ["tray_now": "254"]]])
        recorder.awaitStatus(10, "the external spool feeding") { $0.filament.active?.place == .external }
        server.send(["cmd": "set", "print": ["ams": ["tray_now": "255"]]])
        let none = recorder.awaitStatus(10, "nothing feeding") { $0.filament.active == nil && !$0.filament.isEmpty }
        XCTAssertEqual(none?.filament.slots.count, 6)
    }

    func testATwoNozzlePrintersTrayInUseComesFromTheNozzleInUse() throws {
        let (server, recorder) = try bambu()
        recorder.awaitStatus(15, "the first report") { $0.state == .idle }
        // As an H2D reports it (ha-bambulab's H2D fixture): an AMS and an AMS HT, a stale tray_now.
        server.send(["cmd": "set", "print": [
            "ams": ["ams": [["id": "0", "humidity": "5", "tray": (0..<4).map { tray($0, "PLA", "FF0000FF", remain: 50) }],
                            ["id": "128", "humidity": "0", "tray": [tray(0, "PA-GF", "000000FF", remain: 100)]]],
                    "tray_now": "0"],
            "vt_tray": ["id": "254", "tray_type": "PLA", "tray_color": "FFFFFFFF"],
            "device": ["extruder": ["state": 2, "info": [["id": 0, "snow": 0x8000], ["id": 1, "snow": 0xFEFF]]]],
        ]])
        let ht = try XCTUnwrap(recorder.awaitStatus(10, "the AMS HT feeding the nozzle in use") { $0.filament.slots.count == 6 })
        XCTAssertEqual(ht.filament.active?.place, .tray(unit: 128, tray: 0), "snow wins over a stale tray_now")
        XCTAssertEqual(ht.filament.units.map(\.humidityLevel), [1, nil], "the AMS HT's 0 is no level")
        server.send(["cmd": "set", "print": ["device": ["extruder": ["state": 0x12, "info": [["id": 0, "snow": 0x8000], ["id": 1, "snow": 0x0002]]]]]])
        recorder.awaitStatus(10, "the second nozzle in use, fed by AMS A3") { $0.filament.active?.place == .tray(unit: 0, tray: 2) }
        server.send(["cmd": "set", "print": ["device": ["extruder": ["state": 0x12, "info": [["id": 0, "snow": 0x8000], ["id": 1, "snow": 0xFE00]]]]]])
        recorder.awaitStatus(10, "the external spool") { $0.filament.active?.place == .external }
        server.send(["cmd": "set", "print": ["device": ["extruder": ["state": 0x12, "info": [["id": 0, "snow": 0x8000], ["id": 1, "snow": 0xFEFF]]]]]])
        recorder.awaitStatus(10, "nothing in the nozzle in use") { $0.filament.active == nil && $0.filament.slots.count == 6 }
    }

    func testHostileAMSListsAndValuesAreCutAndRefused() throws {
        let (server, recorder) = try bambu()
        // (The cut is logged once a process, so whether this test sees the line depends on order.)
        recorder.awaitStatus(15, "the first report") { $0.state == .idle }
        let manyTrays = [tray(0, "PLA", "FF0000FF", remain: 50), tray(0, "PLA", "FF0000FF", remain: 50), tray(7, "PLA", "FF0000FF", remain: 50)]
            + (0..<997).map { _ in tray(1, "PLA", "FF0000FF", remain: 50) }
        let badTrays: [[String: Any]] = [
            tray(0, "PLA", "FF0000", remain: "NaN"), tray(1, "PLA", "GGGGGGGG", remain: 1e308),
            tray(2, String(repeating: "X", count: 5000), "#FF0000F", remain: -5),
            ["id": "3", "tray_type": "PETG", "tray_color": 12_345_678, "remain": "Infinity"],
        ]
        let units: [[String: Any]] = [["id": "0", "humidity": "NaN", "tray": manyTrays], ["id": "1", "humidity": "9", "tray": badTrays]]
            + (2..<1000).map { ["id": "\($0)", "humidity": "3", "tray": [tray(0, "PLA", "FFFFFFFF", remain: 10)]] }
        server.send(["cmd": "set", "print": ["ams": ["ams": units, "tray_now": "1e300"], "vt_tray": ["tray_type": "PLA", "tray_color": "nonsense"]]])
        let status = try XCTUnwrap(recorder.awaitStatus(15, "the hostile AMS") { !$0.filament.isEmpty })
        let filament = status.filament
        XCTAssertEqual(filament.units.count, ListLimit.amsUnits, "at most \(ListLimit.amsUnits) units")
        XCTAssertEqual(filament.slots.filter { if case .tray(0, _) = $0.place { true } else { false } }.map(\.place),
                       [.tray(unit: 0, tray: 0), .tray(unit: 0, tray: 1)],
                       "four entries of a unit are read: a repeated id and one past 3 are dropped")
        XCTAssertLessThanOrEqual(filament.slots.count, ListLimit.amsUnits * ListLimit.amsTrays + 1)
        let bad = filament.slots.filter { if case .tray(1, _) = $0.place { true } else { false } }
        XCTAssertEqual(bad.map(\.color), [nil, nil, nil, nil], "only exactly eight hex digits are a colour")
        XCTAssertEqual(bad.map(\.remaining), [nil, nil, nil, nil], "NaN, 1e308, -5 and Infinity are unknown")
        XCTAssertEqual(bad[2].type?.count, FilamentSlot.textLimit)
        XCTAssertEqual(filament.units.first?.humidityLevel, nil)
        XCTAssertEqual(filament.units.dropFirst().first?.humidityLevel, nil, "a level past 5 is unknown")
        XCTAssertNil(filament.active, "a tray_now of 1e300 names no tray")
        XCTAssertEqual(filament.slots.last?.place, .external)
        XCTAssertNil(filament.slots.last?.color)
    }

    private func moonraker(_ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: "moonraker_server.py", arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    private func requests(_ server: TestServer, _ path: String) -> Int {
        server.events(named: "request").filter { $0.string("path") == path }.count
    }

    func testMoonrakersActiveSpoolmanSpoolIsAskedForOnlyWhenItChanges() throws {
        let server = try moonraker(["--spoolman", "--api-key", "SPOOLKEY9"])
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: server.port, apiKey: "SPOOLKEY9"))
        let status = try XCTUnwrap(recorder.awaitStatus(10, "the active spool") { !$0.filament.isEmpty })
        XCTAssertEqual(status.filament.slots, [FilamentSlot(place: .spoolman(id: 2), type: "PLA", name: "Reactor Red",
                                                            color: "BD0B0BFF", remaining: 95, remainingGrams: 950, isActive: true)])
        let proxy = server.events(named: "request").first { $0.string("path") == "/server/spoolman/proxy" }
        let body = proxy?.fields["body"] as? [String: Any]
        XCTAssertEqual(body?["request_method"] as? String, "GET")
        XCTAssertEqual(body?["path"] as? String, "/v1/spool/2")
        XCTAssertEqual(proxy?.fields["authorized"] as? Bool, true, "the proxy request carries the key")

        Thread.sleep(forTimeInterval: 5)
        XCTAssertGreaterThanOrEqual(requests(server, "/server/spoolman/spool_id"), 3, "the active id with each poll")
        XCTAssertEqual(requests(server, "/server/spoolman/proxy"), 1, "the spool's details once, while the id stays")

        var spool = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(#"""
            {"id": 7, "filament": {"id": 3, "name": "Galaxy Black", "material": "PETG", "weight": 750,
             "multi_color_hexes": "1A1A1A,FFFFFF", "density": 1.27, "diameter": 1.75},
             "remaining_weight": 150, "initial_weight": 1000, "used_weight": 850, "archived": false}
            """#.utf8)) as? [String: Any])
        server.send(["cmd": "spoolman", "spool_id": 7, "spools": ["7": spool]])
        let changed = try XCTUnwrap(recorder.awaitStatus(10, "the new spool") { $0.filament.slots.first?.place == .spoolman(id: 7) })
        let slot = try XCTUnwrap(changed.filament.slots.first)
        XCTAssertEqual(slot.color, "1A1A1AFF", "the first of a multi-colour filament's colours")
        XCTAssertEqual(slot.remaining, 15, "150 g of the spool's initial 1000 g")
        XCTAssertEqual(slot.type, "PETG")
        XCTAssertEqual(requests(server, "/server/spoolman/proxy"), 2)

        // A spool Spoolman cannot give, or a hostile one, is unknown; the status goes on.
        spool["filament"] = ["material": 42, "color_hex": "#12345", "weight": "NaN"]
        spool["remaining_weight"] = 1e300
        spool["initial_weight"] = -3
        server.send(["cmd": "spoolman", "spool_id": 8, "spools": ["8": spool]])
        let hostile = try XCTUnwrap(recorder.awaitStatus(10, "the hostile spool") { $0.filament.slots.first?.place == .spoolman(id: 8) })
        XCTAssertEqual(hostile.filament.slots.first?.color, nil)
        XCTAssertEqual(hostile.filament.slots.first?.remaining, nil)
        XCTAssertEqual(hostile.filament.slots.first?.remainingGrams, nil)
        XCTAssertEqual(hostile.filament.slots.first?.type, "42")
        server.send(["cmd": "spoolman", "spool_id": 9])
        recorder.expect(10, "a spool Spoolman does not have", from: recorder.all.count) { $0.status?.filament.isEmpty == true }
        server.send(["cmd": "spoolman", "spool_id": 2])
        recorder.expect(10, "spool 2 again", from: recorder.all.count) { $0.status?.filament.slots.first?.place == .spoolman(id: 2) }
        server.send(["cmd": "spoolman", "spool_id": NSNull()])
        recorder.expect(10, "no active spool", from: recorder.all.count) { $0.status?.filament.isEmpty == true }
    }

    func testWithoutSpoolmanOrWithItFailingTheStatusGoesOnAndItIsAskedOnceAMinute() throws {
        let plain = try moonraker()
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: plain.port, apiKey: nil))
        recorder.awaitStatus(10, "live") { $0.state == .idle && $0.filament.isEmpty }
        plain.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "cube.gcode"]]])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(requests(plain, "/server/spoolman/spool_id"), 1, "a host without Spoolman (404) is asked again only a minute later")
        XCTAssertEqual(requests(plain, "/server/spoolman/proxy"), 0)
        XCTAssertEqual(recorder.all.filter { $0.connection == .connecting }.count, 1, "the 404 did not cost the connection")

        let failing = try moonraker(["--spoolman"])
        failing.send(["cmd": "mode", "mode": "500", "path": "/server/spoolman/proxy"])
        XCTAssertNotNil(failing.waitFor("done", timeout: 5) { $0.string("cmd") == "mode" })
        let second = StatusRecorder(.moonraker(host: "127.0.0.1", port: failing.port, apiKey: nil))
        second.awaitStatus(10, "live without the spool") { $0.state == .idle }
        Thread.sleep(forTimeInterval: 5)
        XCTAssertTrue(second.all.allSatisfy { $0.status?.filament.isEmpty ?? true }, "a failing proxy leaves the filament unknown")
        XCTAssertEqual(requests(failing, "/server/spoolman/proxy"), 1, "a failed spool is asked again only a minute later")
        XCTAssertEqual(second.all.filter { $0.connection == .connecting }.count, 1)
    }
}
