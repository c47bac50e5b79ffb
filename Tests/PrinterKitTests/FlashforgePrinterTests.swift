import Foundation
@testable import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Flashforge printer as saved: its status from the HTTP API with its serial number and check
/// code, the check code in the keyring and never in `printers.json` while one runs, its camera by
/// URL or none, and the dialog's draft with a message under each wrong field.
final class FlashforgePrinterTests: XCTestCase {
    private let fiveM = Printer(name: "5M Pro", kind: .flashforge, host: "192.168.1.40", serial: "SNMOMC9900001",
                                accessCode: "31415926", cameras: [PrinterCamera(url: "http://192.168.1.40:8080/?action=stream")])

    func testItsStatusIsTheHTTPAPIWithSerialAndCheckCode() {
        XCTAssertEqual(fiveM.statusEndpoint, .flashforge(host: "192.168.1.40", port: 8898, serial: "SNMOMC9900001", checkCode: "31415926"))
        var moved = fiveM
        moved.apiPort = 18898
        XCTAssertEqual(moved.statusEndpoint?.port, 18898)
        var noCode = fiveM
        noCode.accessCode = ""
        XCTAssertNil(noCode.statusEndpoint, "no check code, no status")
        var noSerial = fiveM
        noSerial.serial = nil
        XCTAssertNil(noSerial.statusEndpoint, "no serial number, no status")
        XCTAssertEqual(fiveM.kind.displayName, "Flashforge")
        XCTAssertTrue(fiveM.kind.canGoWithoutCamera, "an AD5X may have no camera")
        XCTAssertEqual(fiveM.kind.secretNoun, .checkCode)
    }

    func testItRoundTripsThroughPrintersJSONWithTheCheckCodeInTheKeyring() throws {
        let ad5x = Printer(name: "AD5X", kind: .flashforge, host: "fd00::40", apiPort: 18898, serial: "SNAD5X0000002",
                           accessCode: "27182818", cameras: [], notifies: false)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(ad5x)) as? [String: Any])
        XCTAssertEqual(json["kind"] as? String, "flashforge")
        XCTAssertEqual(json["serial"] as? String, "SNAD5X0000002")
        XCTAssertEqual(json["apiPort"] as? Int, 18898)
        XCTAssertEqual(try JSONDecoder().decode(Printer.self, from: JSONEncoder().encode(ad5x)), ad5x)

        let directory = try makeTemporaryDirectory()
        let config = AppConfig(printers: [Fixtures.x1c, fiveM, ad5x], selectedPrinterID: fiveM.id)
        for secrets in [nil, MemorySecretStore()] as [MemorySecretStore?] {
            try ConfigStore(directory: directory, secrets: secrets).save(config)
            XCTAssertEqual(ConfigStore(directory: directory, secrets: secrets).load().config, config)
            let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent("printers.json")), as: UTF8.self)
            XCTAssertEqual(text.contains("31415926") || text.contains("27182818"), secrets == nil, "the check codes in the keyring when one runs")
            XCTAssertEqual(secrets?.code(fiveM.id), secrets.map { _ in "31415926" }, "the bare check code, as a Bambu access code")
            XCTAssertEqual(secrets?.code(ad5x.id), secrets.map { _ in "27182818" })
        }
        XCTAssertFalse("\(fiveM)".contains("31415926"), "\(fiveM)")
    }

    func testTheDraftMakesAFlashforgePrinter() throws {
        let draft = PrinterDraft(kind: .flashforge, name: " 5M Pro ", host: " 192.168.1.40 ", accessCode: " 31415926 ",
                                 serial: " SNMOMC9900001 ", cameras: [PrinterCamera(url: " http://192.168.1.40:8080/?action=stream ")])
        let printer = try draft.validate().get()
        XCTAssertEqual(printer.kind, .flashforge)
        XCTAssertEqual(printer.host, "192.168.1.40")
        XCTAssertEqual(printer.accessCode, "31415926")
        XCTAssertEqual(printer.serial, "SNMOMC9900001")
        XCTAssertNil(printer.apiPort)
        XCTAssertEqual(printer.cameras.map(\.url), ["http://192.168.1.40:8080/?action=stream"])
        XCTAssertEqual(try PrinterDraft(printer).validate().get(), printer, "editing saves the same printer")
        var camera = PrinterDraft(printer)
        camera.cameras = []
        XCTAssertEqual(try camera.validate().get().cameras, [], "an AD5X without a camera is a status-only printer")

        let problems = { (draft: PrinterDraft) -> [PrinterDraft.Field: String] in
            if case .failure(let problems) = draft.printers() { return problems.messages }
            return [:]
        }
        let empty = problems(PrinterDraft(kind: .flashforge, name: "5M", host: "10.0.0.6"))
        XCTAssertEqual(Set(empty.keys), Set<PrinterDraft.Field>([.accessCode, .serial]))
        XCTAssertTrue(empty[.accessCode]?.contains("check code") ?? false, "\(empty)")
        XCTAssertTrue(empty[.serial]?.contains("serial number") ?? false, "\(empty)")
        let wrong = problems(PrinterDraft(kind: .flashforge, name: "5M", host: "", apiPort: "99999", accessCode: "3141 5926", serial: "SN-1"))
        XCTAssertEqual(Set(wrong.keys), Set<PrinterDraft.Field>([.host, .apiPort, .accessCode, .serial]), "\(wrong)")
        XCTAssertFalse(wrong.values.contains { $0.contains("3141 5926") }, "the code is never repeated")
        let file = problems(PrinterDraft(kind: .flashforge, name: "5M", host: "10.0.0.6", accessCode: "31415926", serial: "SN1",
                                         cameras: [PrinterCamera(url: "file:///etc/passwd")]))
        XCTAssertTrue(file[.url]?.contains("not a network camera") ?? false, "\(file)")
    }

    /// An Adventurer 5M's answer to the discovery ask is offered as a Flashforge printer with its
    /// address and serial number, so the dialog asks only for the check code.
    func testADiscoveredAdventurer5MIsAFlashforgePrinter() throws {
        let found = try XCTUnwrap(DiscoveryParser.parse(DiscoveryAnswers.flashforge(name: "Adventurer 5M Pro", serial: "SNMOMC9900728"),
                                                        sender: "192.0.2.50"))
        XCTAssertEqual(found.kind, .flashforge)
        XCTAssertEqual(found.serial, "SNMOMC9900728")
        XCTAssertTrue(Printer.Kind.flashforge.isDiscovered, "the dialog lists what it finds while Flashforge is chosen")
        XCTAssertTrue(DiscoveryAsk.everyFamily.contains { $0.port == 19000 && $0.address == "225.0.0.9" },
                      "its ask goes out with the registered families'")
    }
}
