import Foundation
@testable import PrinterKit
import TestSupport
import XCTest

/// `printers.json` format 3: a printer has cameras. A format-2 file, where "Find Cameras" with two
/// cameras ticked saved two printers of one Klipper host, loads as one printer with both cameras —
/// no camera, password, key or mounting lost, its mini window and selection following — and the
/// keyring's format-2 items end up in the joined printer's one item.
final class ConfigFormatThreeTests: XCTestCase {
    private let nozzle = UUID(), bed = UUID(), octo = UUID(), octoCam = UUID(), x1 = UUID(), x1Door = UUID(), door = UUID()

    /// A format-2 file as Layerwatch 0.x wrote it with a keyring: Klipper "Voron" with two cameras
    /// (the bed camera's URL has a password), OctoPrint "Prusa" with two, an X1C saved twice (its
    /// own camera, and a door camera typed as the same printer), a plain camera.
    private func writeFormatTwo(in directory: URL, keyring: MemorySecretStore) throws {
        let json = """
        {"formatVersion": 2,
         "printers": [
           {"id": "\(nozzle)", "name": "Voron — Nozzle", "kind": "klipper", "host": "10.0.0.5", "apiPort": 7130,
            "accessCode": "***", "url": "http://10.0.0.5/webcam/?action=stream", "rotation": 90, "flipHorizontal": true,
            "notifies": false, "timelapse": "layer"},
           {"id": "\(door)", "name": "Door", "kind": "generic", "url": "rtsp://admin:***@10.0.0.9/live"},
           {"id": "\(bed)", "name": "Voron — Bed", "kind": "klipper", "host": "10.0.0.5", "apiPort": 7130,
            "accessCode": "***", "url": "http://viewer:***@10.0.0.5/webcam2/?action=stream", "flipVertical": true, "notifies": false},
           {"id": "\(octo)", "name": "Prusa", "kind": "octoprint", "host": "octopi.local", "accessCode": "***",
            "url": "http://octopi.local/webcam/?action=stream"},
           {"id": "\(octoCam)", "name": "Prusa top", "kind": "octoprint", "host": "OCTOPI.local", "accessCode": "***",
            "url": "http://octopi.local/webcam2/?action=stream", "rotation": 180},
           {"id": "\(x1)", "name": "X1C", "kind": "bambuRTSPS", "model": "BL-P001", "host": "192.168.1.20", "serial": "00M09A350100123"},
           {"id": "\(x1Door)", "name": "X1C — Door", "kind": "bambuRTSPS", "model": "BL-P001", "host": "192.168.1.20",
            "serial": "00M09A350100123"}],
         "selectedPrinterID": "\(bed)",
         "window": {"width": 1400, "height": 900, "maximized": false},
         "miniWindows": [{"printerID": "\(bed)", "width": 480, "height": 270}, {"printerID": "\(nozzle)", "width": 300, "height": 200}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        try keyring.store(accessCode: #"{"apiKey":"KLIPPERKEY1"}"#, for: nozzle, label: "")
        try keyring.store(accessCode: #"{"apiKey":"KLIPPERKEY1","cameraURL":"http://viewer:B3dPass@10.0.0.5/webcam2/?action=stream"}"#, for: bed, label: "")
        try keyring.store(accessCode: "rtsp://admin:D00rPass@10.0.0.9/live", for: door, label: "")
        try keyring.store(accessCode: #"{"apiKey":"OCTOKEY123456"}"#, for: octo, label: "")
        try keyring.store(accessCode: #"{"apiKey":"OCTOKEY123456"}"#, for: octoCam, label: "")
        try keyring.store(accessCode: "12345678", for: x1, label: "")
        try keyring.store(accessCode: "12345678", for: x1Door, label: "")
    }

    private var expected: [Printer] {
        [Printer(id: nozzle, name: "Voron", kind: .klipper, host: "10.0.0.5", apiPort: 7130, accessCode: "KLIPPERKEY1",
                 cameras: [PrinterCamera(id: nozzle, name: "Nozzle", url: "http://10.0.0.5/webcam/?action=stream", rotation: 90, flipHorizontal: true),
                           PrinterCamera(id: bed, name: "Bed", url: "http://viewer:B3dPass@10.0.0.5/webcam2/?action=stream", flipVertical: true)],
                 notifies: false, timelapse: .perLayer),
         Printer(id: door, name: "Door", kind: .generic, cameras: [PrinterCamera(id: door, url: "rtsp://admin:D00rPass@10.0.0.9/live")]),
         Printer(id: octo, name: "Prusa", kind: .octoprint, host: "octopi.local", accessCode: "OCTOKEY123456",
                 cameras: [PrinterCamera(id: octo, name: "Prusa", url: "http://octopi.local/webcam/?action=stream"),
                           PrinterCamera(id: octoCam, name: "Prusa top", url: "http://octopi.local/webcam2/?action=stream", rotation: 180)]),
         Printer(id: x1, name: "X1C", kind: .bambuRTSPS(.x1c), host: "192.168.1.20", serial: "00M09A350100123", accessCode: "12345678",
                 cameras: [PrinterCamera(id: x1, name: "X1C"), PrinterCamera(id: x1Door, name: "Door")])]
    }

    func testFormatTwoEntriesOfOnePrinterLoadAsOnePrinterWithTheirCamerasSecretsAndMounting() throws {
        let directory = try makeTemporaryDirectory()
        let keyring = MemorySecretStore()
        try writeFormatTwo(in: directory, keyring: keyring)
        let loaded = ConfigStore(directory: directory, secrets: keyring).load()
        XCTAssertNil(loaded.problem)
        XCTAssertTrue(loaded.needsSave)
        XCTAssertEqual(loaded.config.printers, expected)
        XCTAssertEqual(loaded.config.selectedPrinterID, nozzle, "the bed camera's printer")
        XCTAssertEqual(loaded.config.miniWindows, [AppConfig.MiniWindow(printerID: nozzle, cameraID: bed, width: 480, height: 270)],
                       "one mini window per printer, at the camera it showed")
    }

    func testSavedAsFormatThreeTheKeyringHoldsOneItemPerPrinterAndNothingIsLost() throws {
        let directory = try makeTemporaryDirectory()
        let keyring = MemorySecretStore()
        try writeFormatTwo(in: directory, keyring: keyring)
        let store = ConfigStore(directory: directory, secrets: keyring)
        let loaded = store.load()
        try store.save(loaded.config)

        let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent("printers.json")), as: UTF8.self)
        for secret in ["KLIPPERKEY1", "B3dPass", "D00rPass", "OCTOKEY123456", "12345678"] {
            XCTAssertFalse(text.contains(secret), "\(secret) in \(text)")
        }
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(object["formatVersion"] as? Int, 3)
        XCTAssertEqual((object["printers"] as? [Any])?.count, 4)
        XCTAssertNil(keyring.code(bed), "the joined entries' items are gone: their secrets are in their printer's")
        XCTAssertNil(keyring.code(octoCam))
        XCTAssertNil(keyring.code(x1Door))
        XCTAssertNotNil(keyring.code(nozzle))

        let again = ConfigStore(directory: directory, secrets: keyring).load()
        XCTAssertNil(again.problem)
        XCTAssertFalse(again.needsSave)
        XCTAssertEqual(again.config.printers, expected)
        XCTAssertEqual(again.config.miniWindows, loaded.config.miniWindows)
    }

    /// Loaded and saved while no keyring runs, the joined camera's password stays where format 2
    /// left it, and a later start with the keyring finds it.
    func testWithoutTheKeyringTheJoinedCamerasPasswordIsNotLost() throws {
        let directory = try makeTemporaryDirectory()
        let keyring = MemorySecretStore()
        try writeFormatTwo(in: directory, keyring: keyring)
        let offline = ConfigStore(directory: directory, secrets: nil)
        let loaded = offline.load()
        XCTAssertNotNil(loaded.problem, "the codes are in a keyring that is not running")
        try offline.save(loaded.config)
        XCTAssertNotNil(keyring.code(bed))

        let online = ConfigStore(directory: directory, secrets: keyring).load()
        XCTAssertEqual(online.config.printers.first?.cameras.map(\.url),
                       ["http://10.0.0.5/webcam/?action=stream", "http://viewer:B3dPass@10.0.0.5/webcam2/?action=stream"])
    }

    func testFormatThreeRoundTripsEveryCameraField() throws {
        let directory = try makeTemporaryDirectory()
        var voron = expected[0]
        voron.cameras.append(PrinterCamera(name: "Chamber", url: "rtsp://10.0.0.5:8554/chamber", rotation: 270, flipHorizontal: true, flipVertical: true))
        let config = AppConfig(printers: [voron, expected[3]], selectedPrinterID: voron.id,
                               miniWindows: [.init(printerID: voron.id, cameraID: voron.cameras[2].id, width: 400, height: 300)])
        for secrets in [nil, MemorySecretStore()] as [MemorySecretStore?] {
            try ConfigStore(directory: directory, secrets: secrets).save(config)
            XCTAssertEqual(ConfigStore(directory: directory, secrets: secrets).load().config, config)
        }
    }

    func testNamesJoinAtTheirCommonPart() {
        XCTAssertEqual(FormatTwoMigration.commonName(["Voron — Nozzle", "Voron — Bed"]), "Voron")
        XCTAssertEqual(FormatTwoMigration.commonName(["A — B — Top", "A — B — Side"]), "A — B")
        XCTAssertEqual(FormatTwoMigration.commonName(["Voron — Nozzle", "Bed"]), "Voron")
        XCTAssertEqual(FormatTwoMigration.commonName(["Prusa", "Prusa top"]), "Prusa")
        XCTAssertEqual(FormatTwoMigration.cameraName("Voron — Nozzle", printer: "Voron"), "Nozzle")
        XCTAssertEqual(FormatTwoMigration.cameraName("Prusa top", printer: "Prusa"), "Prusa top")
    }

    /// A hand-edited or damaged file listing thousands of cameras keeps the first 64 (no tab opens
    /// thousands of connections); every other field and printer is read.
    func testAHugeCameraListIsCut() throws {
        let directory = try makeTemporaryDirectory()
        let id = UUID()
        let cameras = (0..<5000).map { #"{"id": "\#(UUID())", "url": "rtsp://10.0.0.5/\#($0)"}"# }.joined(separator: ",")
        let json = """
        {"formatVersion": 3, "printers": [
          {"id": "\(id)", "name": "Voron", "kind": "klipper", "host": "10.0.0.5", "cameras": [\(cameras)]}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertNil(loaded.problem)
        let printer = try XCTUnwrap(loaded.config.printers.first)
        XCTAssertEqual(printer.cameras.count, 64)
        XCTAssertEqual(printer.cameras.last?.url, "rtsp://10.0.0.5/63", "the first ones, in order")
    }

    /// A format-3 printer with a camera list it cannot read is left out alone (the file kept aside);
    /// a Bambu printer without cameras has its own.
    func testAPrinterWithoutACameraIsLeftOutButABambuPrinterHasItsOwn() throws {
        let directory = try makeTemporaryDirectory()
        let bambu = UUID(), klipper = UUID()
        let json = """
        {"formatVersion": 3, "printers": [
          {"id": "\(bambu)", "name": "A1", "kind": "bambuJPEG", "host": "10.0.0.3", "accessCode": "12345678", "cameras": []},
          {"id": "\(klipper)", "name": "Voron", "kind": "klipper", "host": "10.0.0.5", "cameras": [{"name": "no id"}]}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertEqual(loaded.config.printers.map(\.id), [bambu])
        XCTAssertEqual(loaded.config.printers.first?.cameras, [.own(id: bambu)])
        XCTAssertNotNil(loaded.problem)
    }

    /// A Klipper or OctoPrint printer saved without a camera reads back as it was, beside an older
    /// printer with cameras; a camera by URL listing none is still left out.
    func testAPrinterWatchedWithoutACameraRoundTrips() throws {
        let directory = try makeTemporaryDirectory()
        let voron = Printer(name: "Voron", kind: .klipper, host: "10.0.0.5", apiPort: 7130)
        let prusa = Printer(name: "Prusa", kind: .octoprint, host: "octopi.local", accessCode: "OCTOKEY123456", timelapse: .perLayer)
        let config = AppConfig(printers: [voron, expected[0], prusa], selectedPrinterID: voron.id)
        for secrets in [nil, MemorySecretStore()] as [MemorySecretStore?] {
            try ConfigStore(directory: directory, secrets: secrets).save(config)
            let loaded = ConfigStore(directory: directory, secrets: secrets).load()
            XCTAssertNil(loaded.problem)
            XCTAssertEqual(loaded.config.printers.map(\.cameras.count), [0, 2, 0])
            XCTAssertEqual(loaded.config, config)
        }
        let door = UUID()
        let json = """
        {"formatVersion": 3, "printers": [
          {"id": "\(door)", "name": "Door", "kind": "generic", "cameras": []},
          {"id": "\(voron.id)", "name": "Voron", "kind": "klipper", "host": "10.0.0.5", "cameras": []}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertEqual(loaded.config.printers.map(\.id), [voron.id], "a camera by URL without one is left out")
    }
}
