import Foundation
import PrinterKit
import TestSupport
import XCTest

/// `printers.json` format 2: a version-1 file still loads with every new field at its default, and
/// Klipper and OctoPrint printers (API port, key, mounting, notification switch) come back as saved,
/// their keys in the keyring when there is one.
final class ConfigFormatTwoTests: XCTestCase {
    private let voron = Printer(name: "Voron — Nozzle", kind: .klipper, host: "10.0.0.5", apiPort: 7130, accessCode: "0123456789abcdef0123456789abcdef", cameras: [PrinterCamera(url: "http://10.0.0.5/webcam/?action=stream", rotation: 90, flipHorizontal: true)], notifies: false)
    private let trusted = Printer(name: "Voron — Bed", kind: .klipper, host: "10.0.0.5", cameras: [PrinterCamera(url: "http://10.0.0.5/webcam2/?action=stream", flipVertical: true)])
    private let prusa = Printer(name: "Prusa", kind: .octoprint, host: "octopi.local", accessCode: "OCTOKEY123456", cameras: [PrinterCamera(url: "http://viewer:Pa55w0rd@octopi.local/webcam/?action=stream", rotation: 270)])

    func testAVersionOneFileLoadsWithTheNewFieldsAtTheirDefaults() throws {
        let directory = try makeTemporaryDirectory()
        let x1c = UUID(), webcam = UUID()
        let json = """
        {"formatVersion": 1,
         "printers": [
           {"id": "\(x1c)", "name": "X1C workshop", "kind": "bambuRTSPS", "model": "BL-P001", "host": "192.168.1.20",
            "serial": "00M09A350100123", "accessCode": "12345678"},
           {"id": "\(webcam)", "name": "Octo cam", "kind": "generic", "url": "http://192.168.1.40:8080/?action=stream"}],
         "selectedPrinterID": "\(webcam)",
         "window": {"width": 1400, "height": 900, "maximized": true},
         "miniWindows": [{"printerID": "\(x1c)", "width": 480, "height": 270}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.config, AppConfig(
            printers: [Printer(id: x1c, name: "X1C workshop", kind: .bambuRTSPS(.x1c), host: "192.168.1.20",
                               serial: "00M09A350100123", accessCode: "12345678", cameras: [.own(id: x1c)]),
                       Printer(id: webcam, name: "Octo cam", kind: .generic,
                               cameras: [PrinterCamera(id: webcam, url: "http://192.168.1.40:8080/?action=stream")])],
            selectedPrinterID: webcam, window: .init(width: 1400, height: 900, maximized: true),
            miniWindows: [.init(printerID: x1c, cameraID: x1c, width: 480, height: 270)]),
            "each entry's one camera has the entry's id")
        XCTAssertTrue(loaded.config.printers.flatMap(\.cameras).allSatisfy { $0.rotation == 0 && !$0.flipHorizontal && !$0.flipVertical })
        XCTAssertTrue(loaded.config.printers.allSatisfy(\.notifies))
        XCTAssertTrue(loaded.needsSave, "the app writes it as format 3 at once")
        XCTAssertEqual(loaded.config.farm, AppConfig.Farm(shown: false, attentionFirst: true), "tabs, attention first")

        // Saved again, it is a version-3 file.
        try ConfigStore(directory: directory, secrets: nil).save(loaded.config)
        XCTAssertEqual(try fileObject(in: directory)["formatVersion"] as? Int, 3)
    }

    func testTheFarmViewSettingsRoundTrip() throws {
        let directory = try makeTemporaryDirectory()
        let config = AppConfig(printers: [trusted], farm: .init(shown: true, attentionFirst: false))
        try ConfigStore(directory: directory, secrets: nil).save(config)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config, config)
        let farm = try XCTUnwrap(try fileObject(in: directory)["farm"] as? [String: Any])
        XCTAssertEqual(farm["shown"] as? Bool, true)
        XCTAssertEqual(farm["attentionFirst"] as? Bool, false)
    }

    func testTimelapseSettingsRoundTripAndAnUnknownOneMeansNone() throws {
        let directory = try makeTemporaryDirectory()
        var layers = voron, seconds = prusa
        layers.timelapse = .perLayer
        seconds.timelapse = .every(seconds: 30)
        let config = AppConfig(printers: [layers, seconds, trusted])
        try ConfigStore(directory: directory, secrets: nil).save(config)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config, config)
        var object = try fileObject(in: directory)
        var printers = try XCTUnwrap(object["printers"] as? [[String: Any]])
        XCTAssertEqual(printers.map { $0["timelapse"] as? String }, ["layer", "30s", nil])

        // A hand-edited or newer file's setting this version does not know: no timelapse, nothing else lost.
        printers[0]["timelapse"] = "every full moon"
        printers[1]["timelapse"] = 42
        object["printers"] = printers
        try JSONSerialization.data(withJSONObject: object).write(to: directory.appendingPathComponent("printers.json"))
        let loaded = ConfigStore(directory: directory, secrets: nil).load().config.printers
        XCTAssertEqual(loaded.map(\.timelapse), [nil, nil, nil])
        XCTAssertEqual(loaded.map(\.name), [voron.name, prusa.name, trusted.name])
    }

    func testKlipperAndOctoPrintPrintersRoundTripWithTheirKeysInTheFileWithoutAKeyring() throws {
        let directory = try makeTemporaryDirectory()
        let config = AppConfig(printers: [voron, trusted, prusa], selectedPrinterID: prusa.id)
        try ConfigStore(directory: directory, secrets: nil).save(config)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config, config)

        let object = try fileObject(in: directory)
        XCTAssertEqual(object["formatVersion"] as? Int, 3)
        let printers = try XCTUnwrap(object["printers"] as? [[String: Any]])
        XCTAssertEqual(printers.map { $0["kind"] as? String }, ["klipper", "klipper", "octoprint"])
        XCTAssertEqual(printers.map { $0["host"] as? String }, ["10.0.0.5", "10.0.0.5", "octopi.local"])
        XCTAssertEqual(printers.map { $0["apiPort"] as? Int }, [7130, nil, nil])
        let cameras = printers.map { ($0["cameras"] as? [[String: Any]])?.first ?? [:] }
        XCTAssertEqual(cameras.map { $0["rotation"] as? Int }, [90, nil, 270], "defaults are not written")
        XCTAssertEqual(cameras.map { $0["flipHorizontal"] as? Bool }, [true, nil, nil])
        XCTAssertEqual(cameras.map { $0["flipVertical"] as? Bool }, [nil, true, nil])
        XCTAssertEqual(printers.map { $0["notifies"] as? Bool }, [false, nil, nil])
        XCTAssertEqual(printers.map { $0["accessCode"] as? String }, ["0123456789abcdef0123456789abcdef", nil, "OCTOKEY123456"])
    }

    func testWithAKeyringTheFileHasNoKeyNorCameraPassword() throws {
        let directory = try makeTemporaryDirectory()
        let keyring = MemorySecretStore()
        // A Klipper printer trusted without a key has nothing in the keyring, and must not be missed there.
        let config = AppConfig(printers: [voron, trusted, prusa])
        XCTAssertEqual(try ConfigStore(directory: directory, secrets: keyring).save(config).location, .keyring)
        let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent("printers.json")), as: UTF8.self)
        for secret in ["0123456789abcdef0123456789abcdef", "OCTOKEY123456", "Pa55w0rd"] {
            XCTAssertFalse(text.contains(secret), "\(secret) in \(text)")
        }
        XCTAssertTrue(text.contains("http://viewer:***@octopi.local/webcam/?action=stream"), text)
        let printers = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["printers"] as? [[String: Any]])
        XCTAssertEqual(printers.map { $0["accessCode"] as? String }, ["***", nil, "***"], "the file marks the keys the keyring keeps")

        let loaded = ConfigStore(directory: directory, secrets: keyring).load()
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.config, config)
    }

    private func fileObject(in directory: URL) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("printers.json")))
        return try XCTUnwrap(json as? [String: Any])
    }
}
