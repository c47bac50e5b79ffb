import Foundation
@testable import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Creality printer as saved: its own camera where its family streams it (MJPEG on 8080 for the
/// K1 family, WebRTC on 8000 for the K2 family and Hi), its status from the websocket on 9999,
/// written to `printers.json` and read back (with the keyring and without), files from before it
/// still read, the dialog's draft, masking, go2rtc's export, and the model a printer's answer names.
final class CrealityPrinterTests: XCTestCase {
    private let k1c = Printer(name: "K1C workshop", kind: .creality(.k1), host: "192.168.1.30")
    private let k2 = Printer(name: "K2 Plus", kind: .creality(.k2), host: "fd00::7", apiPort: 19999, notifies: false, timelapse: .perLayer)

    func testTheOwnCameraFollowsTheFamily() throws {
        XCTAssertEqual(k1c.cameras, [PrinterCamera(id: k1c.cameras[0].id)], "made with its own camera")
        XCTAssertEqual(try k1c.source(of: k1c.cameras[0]), .http(URL(string: "http://192.168.1.30:8080/?action=stream")!))
        XCTAssertEqual(try k2.source(of: k2.cameras[0]), StreamSource.webrtc(URL(string: "http://[fd00::7]:8000/call/webrtc_local#format=creality")!))
        XCTAssertEqual(try StreamSource.parse(CrealityFamily.k2.cameraURL(host: "10.0.0.8")).description,
                       "webrtc:http://10.0.0.8:8000/call/webrtc_local#format=creality")
        let noHost = Printer(name: "K1", kind: .creality(.k1))
        XCTAssertThrowsError(try noHost.source(of: noHost.cameras[0])) { XCTAssertEqual($0 as? BambuCamera.InputError, .emptyHost) }
    }

    func testItsStatusIsTheWebsocketOnItsPort() {
        XCTAssertEqual(k1c.statusEndpoint, .creality(host: "192.168.1.30", port: 9999))
        XCTAssertEqual(k2.statusEndpoint, .creality(host: "fd00::7", port: 19999))
        XCTAssertNil(Printer(name: "K1", kind: .creality(.k1)).statusEndpoint, "no address, no status")
    }

    func testItRoundTripsThroughPrintersJSONWithItsFamily() throws {
        var printer = k2
        printer.cameras.append(PrinterCamera(name: "Door", url: "rtsp://admin:D00rPass@10.0.0.9/live", rotation: 90))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(printer)) as? [String: Any])
        XCTAssertEqual(json["kind"] as? String, "creality")
        XCTAssertEqual(json["family"] as? String, "k2")
        XCTAssertEqual(json["host"] as? String, "fd00::7")
        XCTAssertEqual(json["apiPort"] as? Int, 19999)
        XCTAssertNil(json["model"], "no Bambu model")
        XCTAssertNil(json["accessCode"], "it has no code")
        XCTAssertEqual((json["cameras"] as? [[String: Any]])?.count, 2)
        XCTAssertEqual(try JSONDecoder().decode(Printer.self, from: JSONEncoder().encode(printer)), printer)

        let directory = try makeTemporaryDirectory()
        let config = AppConfig(printers: [Fixtures.x1c, k1c, printer], selectedPrinterID: k1c.id)
        for secrets in [nil, MemorySecretStore()] as [MemorySecretStore?] {
            try ConfigStore(directory: directory, secrets: secrets).save(config)
            XCTAssertEqual(ConfigStore(directory: directory, secrets: secrets).load().config, config)
            let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent("printers.json")), as: UTF8.self)
            XCTAssertEqual(text.contains("D00rPass"), secrets == nil, "the door camera's password in the keyring when one runs")
            XCTAssertEqual(secrets?.code(printer.id).map { $0.contains("D00rPass") }, secrets.map { _ in true })
            XCTAssertNil(secrets?.code(k1c.id), "a Creality printer alone has nothing for the keyring")
        }
    }

    /// A file written before Creality printers (format 3 with Bambu and Klipper printers) reads as
    /// it did; a Creality entry without a family, or with one this version does not know, is a K1;
    /// one without cameras has its own.
    func testOlderAndNewerFilesRead() throws {
        let directory = try makeTemporaryDirectory()
        let klipper = UUID(), bambu = UUID(), bare = UUID(), newer = UUID()
        let json = """
        {"formatVersion": 3, "printers": [
          {"id": "\(klipper)", "name": "Voron", "kind": "klipper", "host": "10.0.0.5",
           "cameras": [{"id": "\(UUID())", "url": "http://10.0.0.5/webcam/?action=stream"}]},
          {"id": "\(bambu)", "name": "A1", "kind": "bambuJPEG", "model": "N2S", "host": "10.0.0.3", "accessCode": "12345678"},
          {"id": "\(bare)", "name": "K1", "kind": "creality", "host": "10.0.0.6"},
          {"id": "\(newer)", "name": "K3", "kind": "creality", "family": "k3", "host": "10.0.0.7", "cameras": []}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.config.printers.map(\.kind), [Printer.Kind.klipper, .bambuJPEG(.a1), .creality(.k1), .creality(.k1)])
        XCTAssertEqual(loaded.config.printers.map(\.cameras.count), [1, 1, 1, 1])
        XCTAssertEqual(loaded.config.printers[3].cameras, [.own(id: newer)], "its own camera")
        XCTAssertEqual(loaded.config.printers[2].cameras.first?.url, nil)
    }

    func testTheDraftMakesACrealityPrinter() throws {
        let id = UUID()
        let draft = PrinterDraft(id: id, kind: .creality(.k2), name: " K2 Plus ", host: " 192.168.1.31 ", accessCode: "left from Bambu",
                                 cameras: [.own(), PrinterCamera(name: "Door", url: " http://10.0.0.9/?action=stream ")], timelapse: .perLayer)
        let printer = try draft.validate().get()
        XCTAssertEqual(printer.id, id)
        XCTAssertEqual(printer.kind, Printer.Kind.creality(.k2))
        XCTAssertEqual(printer.host, "192.168.1.31")
        XCTAssertEqual(printer.accessCode, "", "no code is sent to or kept for a Creality printer")
        XCTAssertNil(printer.apiPort)
        XCTAssertEqual(printer.cameras.map(\.url), [nil, "http://10.0.0.9/?action=stream"], "its own camera first")
        XCTAssertEqual(printer.timelapse, .perLayer)
        XCTAssertEqual(try PrinterDraft(printer).validate().get(), printer, "editing saves the same printer")

        var kept = PrinterDraft(printer)
        kept.apiPort = "19999"
        XCTAssertEqual(try kept.validate().get().apiPort, 19999, "an edited printer's websocket port is kept")

        let problems = { (draft: PrinterDraft) in (try? draft.validate().get()) == nil ? draft.printers().failureMessages : [:] }
        XCTAssertEqual(problems(PrinterDraft(kind: .creality(.k1), name: "K1", host: "")),
                       [.host: "Enter the printer's IP address (Settings → Network on the printer)."])
        let file = problems(PrinterDraft(kind: .creality(.k1), name: "K1", host: "10.0.0.6", cameras: [.own(), PrinterCamera(url: "file:///etc/passwd")]))
        XCTAssertEqual(file.keys.sorted { "\($0)" < "\($1)" }, [.cameras], "a printer's camera is a network camera")
        XCTAssertTrue(file[.cameras]?.contains("not a network camera") ?? false, "\(file)")
    }

    func testItsDescriptionShowsTheAddressAndMasksPasswords() {
        var printer = k1c
        printer.cameras.append(PrinterCamera(url: "http://viewer:hunter22@10.0.0.9/?action=stream"))
        let text = "\(printer)"
        XCTAssertTrue(text.contains("192.168.1.30"), text)
        XCTAssertFalse(text.contains("hunter22"), text)
        XCTAssertTrue(text.contains("http://viewer:***@10.0.0.9"), text)
    }

    func testGo2RTCGetsTheCameraTheFamilyStreams() throws {
        let nameless = Printer(name: "No address", kind: .creality(.k1))
        let yaml = Go2RTCExport.yaml(for: [k1c, Printer(name: "K2", kind: .creality(.k2), host: "10.0.0.8"), nameless])
        XCTAssertTrue(yaml.contains(#""k1c_workshop": "http://192.168.1.30:8080/?action=stream""#), yaml)
        XCTAssertTrue(yaml.contains(#""k2": "webrtc:http://10.0.0.8:8000/call/webrtc_local#format=creality""#), yaml)
        XCTAssertTrue(yaml.contains("# no_address: left out, its address is missing or invalid"), yaml)
    }

    /// What a printer says of itself names its model and so its camera: a name in `model`, a K2's
    /// board code in `model` or `modelVersion`, WebRTC firmware whatever the model.
    func testTheModelAPrinterNamesChoosesItsFamily() {
        let cases: [(CrealityIdentity, CrealityModel?, CrealityFamily?)] = [
            (CrealityIdentity(model: "K1C", webrtcSupport: false), .k1C, .k1),
            (CrealityIdentity(model: "CR-K1 Max"), .k1Max, .k1),
            (CrealityIdentity(model: "CR-K1"), .k1, .k1),
            (CrealityIdentity(model: "K1 SE"), .k1SE, .k1),
            (CrealityIdentity(model: "Ender-3 V3 KE"), .ender3V3KE, .k1),
            (CrealityIdentity(model: "", modelVersion: "Printer HW Ver: F002; Printer SW Ver: 1.1.0.5"), .ender3V3Plus, .k1),
            (CrealityIdentity(model: "F008"), .k2Plus, .k2),
            (CrealityIdentity(model: "K2", modelVersion: "Printer HW Ver: F012; Printer SW Ver: 1.1.2.10"), .k2Pro, .k2),
            (CrealityIdentity(model: "K2"), .k2, .k2),
            (CrealityIdentity(model: "Creality Hi"), .hi, .k2),
            (CrealityIdentity(model: "K1C", webrtcSupport: true), .k1C, .k2),
            (CrealityIdentity(webrtcSupport: true), nil, .k2),
            (CrealityIdentity(model: "Sermoon D3"), nil, nil),
            (CrealityIdentity(model: "F0080"), nil, nil),
            (CrealityIdentity(), nil, nil),
        ]
        for (identity, model, family) in cases {
            XCTAssertEqual(CrealityModel(identity), model, "\(identity)")
            XCTAssertEqual(CrealityModel.family(of: identity), family, "\(identity)")
        }
        XCTAssertEqual(CrealityModel.k2Plus.displayName, "K2 Plus")
    }
}
