import Foundation
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// A `printers.json` with one bad field or one unreadable printer: only that field (its default
/// used) or that printer is left out, with a log line naming where, never the value; the rest loads,
/// and a copy of the file keeps what the next save will not have.
final class ConfigLenientReadingTests: XCTestCase {
    private var directory: URL!
    private var file: URL { directory.appendingPathComponent("printers.json") }
    private let logged = LogLines()

    private static let goodID = "6F9619FF-8B86-D011-B42D-00CF4FC964FF"
    private static let otherID = "0E984725-C51C-4BF4-9960-E1C80E27ABA0"
    /// A printer with every optional field set to something other than its default.
    private static let good: [String: String] = [
        "id": #""\#(goodID)""#, "name": #""Workshop X1C""#, "kind": #""bambuRTSPS""#, "model": #""BL-P001""#,
        "host": #""192.168.1.20""#, "apiPort": "8884", "serial": #""00M09A350100123""#, "url": #""rtsp://cam.lan/live""#,
        "accessCode": #""12345678""#, "rotation": "90", "flipHorizontal": "true", "flipVertical": "true",
        "notifies": "false", "timelapse": #""30s""#,
    ]
    private static let other = #"{"id": "\#(otherID)", "name": "Door", "kind": "generic", "url": "http://door.lan/cam"}"#

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
        let logged = logged
        StreamLog.handler = { _, line in logged.append(line) }
    }

    override func tearDown() {
        StreamLog.handler = nil
    }

    func testEachBadFieldTakesItsDefaultAndKeepsThePrinter() throws {
        let notString = ["90", "true", #"{"a": "b"}"#, #"["a"]"#, "1e30", "null"]
        let notBool = [#""yes""#, #""true""#, "1", "0", #"{"a": true}"#, #""NaN""#, "null"]
        let notInt = [#""90""#, "90.5", "1e30", "99999999999999999999", #""NaN""#, #""Infinity""#, #""-Inf""#, "true",
                      #"{"a": 1}"#, "[90]", "null"]
        let bad: [String: [String]] = [
            "model": notString + [#""Z9""#],
            "host": notString, "serial": notString, "url": notString, "accessCode": notString,
            "apiPort": notInt + ["0", "70000", "-1"],
            "rotation": notInt,
            "flipHorizontal": notBool, "flipVertical": notBool, "notifies": notBool,
            "timelapse": notString + [#""forever""#, #""0s""#],
        ]
        let full = try load(printers: [Self.object(Self.good), Self.other]).config.printers
        XCTAssertEqual(full.count, 2)
        for (field, values) in bad.sorted(by: { $0.key < $1.key }) {
            var without = Self.good
            without[field] = nil
            let defaulted = try XCTUnwrap(try load(printers: [Self.object(without), Self.other]).config.printers.first, field)
            XCTAssertNotEqual(defaulted, full[0], "\(field) was set to something other than its default")
            for value in values {
                var broken = Self.good
                broken[field] = value
                let before = logged.lines.count
                let loaded = try load(printers: [Self.object(broken), Self.other])
                XCTAssertEqual(loaded.config.printers, [defaulted, full[1]], "\(field): \(value)")
                // Without its code a Bambu printer is one whose code the keyring keeps, and none runs here.
                XCTAssertEqual(loaded.problem == nil, field != "accessCode", "\(field): \(value) → \(loaded.problem ?? "")")
                let lines = logged.lines.dropFirst(before)
                if value == "null" {
                    XCTAssertEqual(Array(lines), [], "null is no value: nothing to say")
                } else {
                    XCTAssertEqual(lines.count, 1, "\(field): \(value) → \(Array(lines))")
                    let line = lines.first ?? ""
                    XCTAssertTrue(line.hasPrefix("printers.json: printers[0].\(field) (printer “Workshop X1C” \(Self.goodID)) "), line)
                    XCTAssertTrue(line.hasSuffix("; left out, its default used"), line)
                    let shown = value.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    XCTAssertFalse(shown.count >= 2 && line.contains(shown), "the value: \(line)")
                }
            }
        }
    }

    func testBadSettingsTakeTheirDefaultsAndKeepTheRest() throws {
        let printers = [Self.object(Self.good), Self.other]
        let window = #""window": {"width": 1400, "height": 900, "maximized": true}"#
        let farm = #""farm": {"shown": true, "attentionFirst": false}"#
        let mini = #""miniWindows": [{"printerID": "\#(Self.goodID)", "width": 480, "height": 270}]"#
        let selected = #""selectedPrinterID": "\#(Self.otherID)""#
        let hint = #""keepAboveHintShown": true"#
        // A closed tab of a printer not in the file is dropped.
        let closed = #""closedTabs": ["\#(Self.otherID)", "5A7D3C9E-0F4B-4E11-9C77-2B1D0E6F8A90"]"#
        let good = try load([window, farm, mini, selected, hint, closed], printers: printers).config
        XCTAssertEqual(good.printers.count, 2)
        XCTAssertEqual(good.window, .init(width: 1400, height: 900, maximized: true))
        XCTAssertEqual(good.farm, .init(shown: true, attentionFirst: false))
        XCTAssertEqual(good.miniWindows.count, 1)
        XCTAssertEqual(good.selectedPrinterID?.uuidString, Self.otherID)
        XCTAssertTrue(good.keepAboveHintShown)
        XCTAssertEqual(good.closedTabs.map(\.uuidString), [Self.otherID])
        XCTAssertEqual(try load([window], printers: printers).config.closedTabs, [], "a file from before closed tabs: none closed")

        let cases: [(field: String, path: String, change: (inout AppConfig) -> Void)] = [
            (#""window": {"width": "wide", "height": 900, "maximized": true}"#, "window.width", { $0.window.width = 960 }),
            (#""window": {"width": 1400, "height": 900, "maximized": "yes"}"#, "window.maximized", { $0.window.maximized = false }),
            (#""window": {"width": 1e400, "height": 900, "maximized": true}"#, "window.width", { $0.window.width = 960 }),
            (#""window": "big""#, "window", { $0.window = .standard }),
            (#""farm": {"shown": "yes", "attentionFirst": false}"#, "farm.shown", { $0.farm.shown = false }),
            (#""farm": 1"#, "farm", { $0.farm = .standard }),
            (#""miniWindows": "none""#, "miniWindows", { $0.miniWindows = [] }),
            (#""miniWindows": [{"printerID": 7, "width": 1, "height": 1}, {"printerID": "\#(Self.goodID)", "width": 480, "height": 270}]"#,
             "miniWindows[0]", { _ in }),
            (#""selectedPrinterID": 5"#, "selectedPrinterID", { $0.selectedPrinterID = nil }),
            (#""selectedPrinterID": "not a uuid""#, "selectedPrinterID", { $0.selectedPrinterID = nil }),
            (#""keepAboveHintShown": "true""#, "keepAboveHintShown", { $0.keepAboveHintShown = false }),
            (#""closedTabs": "none""#, "closedTabs", { $0.closedTabs = [] }),
            (#""closedTabs": [7, "\#(Self.otherID)"]"#, "closedTabs[0]", { _ in }),
        ]
        for (field, path, change) in cases {
            let key = field.prefix { $0 != ":" }
            let before = logged.lines.count
            var expected = good
            change(&expected)
            let loaded = try load([window, farm, mini, selected, hint, closed].map { $0.hasPrefix(key) ? field : $0 }, printers: printers)
            XCTAssertNil(loaded.problem)
            XCTAssertEqual(loaded.config, expected, field)
            let lines = Array(logged.lines.dropFirst(before))
            XCTAssertEqual(lines.count, 1, "\(field) → \(lines)")
            XCTAssertTrue(lines.first?.hasPrefix("printers.json: \(path) ") ?? false, "\(field) → \(lines)")
        }
    }

    func testAnUnreadablePrinterIsLeftOutAloneAndTheFileKeptAsItWas() throws {
        let keyring = MemorySecretStore()
        let laserID = "C0FFEE00-0000-4000-8000-000000000001"
        try keyring.store(accessCode: "laser-code", for: UUID(uuidString: laserID)!, label: "laser")
        let text = Self.file([#""selectedPrinterID": "\#(laserID)""#,
                              #""miniWindows": [{"printerID": "\#(laserID)", "width": 480, "height": 270}]"#], printers: [
            Self.object(Self.good),
            #"{"name": "No id", "kind": "generic", "url": "http://a.lan/"}"#,
            #"{"id": "\#(laserID)", "name": "Laser", "kind": "laser", "host": "laser.lan"}"#,
            #"{"id": "1B4E28BA-2FA1-11D2-883F-0016D3CCA427", "name": 5, "kind": "generic"}"#,
            #""just text""#,
            Self.other,
        ])
        try Data(text.utf8).write(to: file)

        let probe = ConfigStore(directory: directory, secrets: keyring).load(settingAside: false)
        XCTAssertEqual(probe.config.printers.map(\.name), ["Workshop X1C", "Door"])
        XCTAssertEqual(probe.problem, "Layerwatch could not read 4 of its saved printers (printers[1].id is missing; "
                       + "printers[2].kind is not valid; printers[3].name has the wrong type; printers[4] has the wrong type) and left them out.")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["printers.json"], "a probe changes no file")

        let store = ConfigStore(directory: directory, secrets: keyring)
        let loaded = store.load()
        XCTAssertEqual(loaded.config.printers.map(\.name), ["Workshop X1C", "Door"])
        XCTAssertNil(loaded.config.selectedPrinterID)
        XCTAssertEqual(loaded.config.miniWindows, [])
        let copies = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "printers.json" }
        XCTAssertEqual(copies.count, 1)
        let copy = try XCTUnwrap(copies.first)
        XCTAssertTrue(copy.hasPrefix("printers.json.broken-"), copy)
        XCTAssertEqual(loaded.problem, probe.problem! + " The file as it was is kept as \(copy) in \(directory.path).")
        XCTAssertEqual(try permissions(directory.appendingPathComponent(copy)), 0o600)
        XCTAssertEqual(logged.lines.filter { $0.contains(" left out: ") }.count, 8, "four printers, each time read: \(logged.lines)")

        try store.save(loaded.config)
        XCTAssertEqual(String(decoding: try Data(contentsOf: directory.appendingPathComponent(copy)), as: UTF8.self), text)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: keyring).load().config, loaded.config)
        XCTAssertEqual(keyring.code(UUID(uuidString: laserID)!), "laser-code", "the printer left out keeps its code in the keyring")
    }

    func testRefusesToSaveWhenNoCopyCanBeKept() throws {
        let deep = try makeFolderTooDeepForACopy()
        let text = Self.file([], printers: [Self.object(Self.good), #"{"name": "No id", "kind": "generic"}"#])
        try Data(text.utf8).write(to: deep.appendingPathComponent("printers.json"))
        let store = ConfigStore(directory: deep, secrets: nil)
        let loaded = store.load()
        XCTAssertEqual(loaded.config.printers.map(\.name), ["Workshop X1C"])
        let problem = try XCTUnwrap(loaded.problem)
        XCTAssertTrue(problem.hasPrefix("Layerwatch could not read 1 of its saved printers (printers[1].id is missing) and left them out. "
                                        + "It could not keep a copy of the file ("), problem)
        XCTAssertThrowsError(try store.save(loaded.config)) { XCTAssertEqual("\($0)", problem) }
        XCTAssertEqual(String(decoding: try Data(contentsOf: deep.appendingPathComponent("printers.json")), as: UTF8.self), text)
    }

    func testAGoodFileRoundTripsByteForByteWithoutALogLine() throws {
        try ConfigStore(directory: directory, secrets: nil).save(Fixtures.config)
        let written = try Data(contentsOf: file)
        let store = ConfigStore(directory: directory, secrets: nil)
        let loaded = store.load()
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.config, Fixtures.config)
        try store.save(loaded.config)
        XCTAssertEqual(try Data(contentsOf: file), written)
        XCTAssertEqual(logged.lines, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["printers.json"])
    }

    /// `fields` as a JSON object.
    private static func object(_ fields: [String: String]) -> String {
        "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    }

    /// A version-2 printers.json with `printers` and the other top-level `members`.
    private static func file(_ members: [String], printers: [String]) -> String {
        "{" + (["\"formatVersion\": 2", "\"printers\": [" + printers.joined(separator: ", ") + "]"] + members).joined(separator: ", ") + "}"
    }

    /// What a version-2 printers.json with `printers` and the other top-level `members` loads as (the
    /// app's store, no keyring), checked to leave the file where it was and make no copy.
    private func load(_ members: [String] = [], printers: [String]) throws -> ConfigStore.Loaded {
        try Data(Self.file(members, printers: printers).utf8).write(to: file)
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["printers.json"])
        return loaded
    }
}
