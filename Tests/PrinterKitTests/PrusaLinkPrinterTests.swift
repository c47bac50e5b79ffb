import Foundation
@testable import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Prusa printer with PrusaLink as saved: its status from PrusaLink at its address with its
/// password, the password in the keyring (`***` in `printers.json`) or, without a keyring, in the
/// owner-only file; its cameras by URL or none; and the dialog's form checks in PrusaLink's words.
final class PrusaLinkPrinterTests: XCTestCase {
    private let coreOne = Printer(name: "Core One", kind: .prusaLink, host: "192.168.1.40", accessCode: "Pr1ntPass",
                                  cameras: [PrinterCamera(name: "Buddy3D", url: "rtsp://192.168.1.41/live")])

    func testItsStatusIsPrusaLinkWithThePassword() {
        XCTAssertEqual(coreOne.statusEndpoint, .prusaLink(host: "192.168.1.40", port: 80, password: "Pr1ntPass"))
        var other = coreOne
        other.apiPort = 8080
        XCTAssertEqual(other.statusEndpoint, .prusaLink(host: "192.168.1.40", port: 8080, password: "Pr1ntPass"))
        XCTAssertNil(Printer(name: "MK4", kind: .prusaLink).statusEndpoint, "no address, no status")
        XCTAssertEqual(Printer.Kind.prusaLink.secretNoun, .password)
        XCTAssertEqual(coreOne.kind.displayName, "Prusa (PrusaLink)")
    }

    func testItRoundTripsThroughPrintersJSONWithThePasswordInTheKeyring() throws {
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(coreOne)) as? [String: Any])
        XCTAssertEqual(json["kind"] as? String, "prusalink")
        XCTAssertEqual(json["host"] as? String, "192.168.1.40")
        XCTAssertEqual(try JSONDecoder().decode(Printer.self, from: JSONEncoder().encode(coreOne)), coreOne)

        let directory = try makeTemporaryDirectory()
        let bare = Printer(name: "MK4 no camera", kind: .prusaLink, host: "fd00::40", apiPort: 8080, accessCode: "An0ther", cameras: [])
        let config = AppConfig(printers: [coreOne, bare], selectedPrinterID: coreOne.id)
        for secrets in [nil, MemorySecretStore()] as [MemorySecretStore?] {
            try ConfigStore(directory: directory, secrets: secrets).save(config)
            XCTAssertEqual(ConfigStore(directory: directory, secrets: secrets).load().config, config)
            let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent("printers.json")), as: UTF8.self)
            XCTAssertEqual(text.contains("Pr1ntPass"), secrets == nil, "the password in the keyring when one runs: \(text)")
            XCTAssertEqual(secrets?.code(coreOne.id).map { $0.contains("Pr1ntPass") }, secrets.map { _ in true })
            XCTAssertEqual(secrets?.code(bare.id).map { $0.contains("An0ther") }, secrets.map { _ in true })
            if secrets != nil { XCTAssertTrue(text.contains(#""accessCode" : "***""#) || text.contains(#""accessCode": "***""#), text) }
        }
        XCTAssertEqual(SecretsPlace.keyring.sentence(for: .password),
                       "The password is kept in your keyring (Secret Service), not in printers.json.")
    }

    func testTheDraftMakesAPrusaPrinterAndSaysWhatIsWrongInItsTerms() throws {
        let draft = PrinterDraft(kind: .prusaLink, name: " Core One ", host: " 192.168.1.40 ", accessCode: " Pr1ntPass ", cameras: [])
        let printer = try draft.validate().get()
        XCTAssertEqual(printer.kind, .prusaLink)
        XCTAssertEqual(printer.host, "192.168.1.40")
        XCTAssertEqual(printer.accessCode, "Pr1ntPass")
        XCTAssertEqual(printer.cameras, [], "no camera: its tab shows the job's thumbnail")
        XCTAssertNil(printer.apiPort)
        XCTAssertEqual(try PrinterDraft(printer).validate().get(), printer, "editing saves the same printer")

        let problems = { (draft: PrinterDraft) in (try? draft.validate().get()) == nil ? draft.printers().failureMessages : [:] }
        XCTAssertEqual(problems(PrinterDraft(kind: .prusaLink, name: "MK4", host: "", accessCode: "")),
                       [.host: "Enter the printer's address (on the printer: Settings → Network).",
                        .accessCode: "Enter the PrusaLink password (on the printer: Settings → Network → PrusaLink)."])
        XCTAssertEqual(problems(PrinterDraft(kind: .prusaLink, name: "MK4", host: "10.0.0.5", accessCode: "two words")),
                       [.accessCode: "A PrusaLink password has only letters, digits and punctuation, no spaces: copy it again from the printer's screen."])
        XCTAssertEqual(problems(PrinterDraft(kind: .prusaLink, name: "MK4", host: "10.0.0.5", apiPort: "http", accessCode: "P")).keys.map { "\($0)" },
                       ["apiPort"])
    }

    func testItsDescriptionNeverShowsThePassword() {
        let text = "\(coreOne)"
        XCTAssertTrue(text.contains("192.168.1.40"), text)
        XCTAssertFalse(text.contains("Pr1ntPass"), text)
        XCTAssertFalse(coreOne.statusEndpoint!.description.contains("Pr1ntPass"))
    }
}
