import Foundation
@testable import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// An Elegoo Centauri Carbon as saved: its own camera, the MJPEG stream on port 3031, its status
/// from the SDCP websocket on 3030, written to `printers.json` and read back (it has no secret),
/// the dialog's draft and its checks, and go2rtc's export.
final class ElegooPrinterTests: XCTestCase {
    private let carbon = Printer(name: "Carbon workshop", kind: .elegoo, host: "192.168.1.40")
    private let moved = Printer(name: "Carbon 2", kind: .elegoo, host: "fd00::9", apiPort: 13030, notifies: false, timelapse: .perLayer)

    func testItsOwnCameraAndStatusFollowItsAddress() throws {
        XCTAssertEqual(carbon.cameras, [PrinterCamera(id: carbon.cameras[0].id)], "made with its own camera")
        XCTAssertEqual(try carbon.source(of: carbon.cameras[0]), .http(URL(string: "http://192.168.1.40:3031/video")!))
        XCTAssertEqual(try moved.source(of: moved.cameras[0]), .http(URL(string: "http://[fd00::9]:3031/video")!))
        XCTAssertEqual(carbon.statusEndpoint, .elegoo(host: "192.168.1.40", port: 3030))
        XCTAssertEqual(moved.statusEndpoint, .elegoo(host: "fd00::9", port: 13030))
        let noHost = Printer(name: "CC", kind: .elegoo)
        XCTAssertNil(noHost.statusEndpoint, "no address, no status")
        XCTAssertThrowsError(try noHost.source(of: noHost.cameras[0])) { XCTAssertEqual($0 as? BambuCamera.InputError, .emptyHost) }
        XCTAssertEqual(Printer.Kind.elegoo.displayName, "Elegoo Centauri Carbon")
    }

    func testItRoundTripsThroughPrintersJSON() throws {
        var printer = moved
        printer.cameras.append(PrinterCamera(name: "Door", url: "rtsp://admin:D00rPass@10.0.0.9/live"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(printer)) as? [String: Any])
        XCTAssertEqual(json["kind"] as? String, "elegoo")
        XCTAssertEqual(json["host"] as? String, "fd00::9")
        XCTAssertEqual(json["apiPort"] as? Int, 13030)
        XCTAssertNil(json["accessCode"], "it has no code")
        XCTAssertNil(json["family"], "no variant")
        XCTAssertEqual(try JSONDecoder().decode(Printer.self, from: JSONEncoder().encode(printer)), printer)

        let directory = try makeTemporaryDirectory()
        let config = AppConfig(printers: [Fixtures.x1c, carbon, printer], selectedPrinterID: carbon.id)
        for secrets in [nil, MemorySecretStore()] as [MemorySecretStore?] {
            try ConfigStore(directory: directory, secrets: secrets).save(config)
            XCTAssertEqual(ConfigStore(directory: directory, secrets: secrets).load().config, config)
            XCTAssertNil(secrets?.code(carbon.id), "an Elegoo printer alone has nothing for the keyring")
        }
    }

    func testTheDraftMakesAnElegooPrinterAndChecksItsFields() throws {
        let id = UUID()
        let draft = PrinterDraft(id: id, kind: .elegoo, name: " Carbon ", host: " 192.168.1.41 ", accessCode: "left from Bambu",
                                 cameras: [.own(), PrinterCamera(name: "Door", url: " http://10.0.0.9/?action=stream ")], timelapse: .perLayer)
        let printer = try draft.validate().get()
        XCTAssertEqual(printer.id, id)
        XCTAssertEqual(printer.kind, .elegoo)
        XCTAssertEqual(printer.host, "192.168.1.41")
        XCTAssertEqual(printer.accessCode, "", "no code is kept for an Elegoo printer")
        XCTAssertNil(printer.apiPort)
        XCTAssertEqual(printer.cameras.map(\.url), [nil, "http://10.0.0.9/?action=stream"], "its own camera first")
        XCTAssertEqual(try PrinterDraft(printer).validate().get(), printer, "editing saves the same printer")

        var edited = PrinterDraft(printer)
        edited.apiPort = "13030"
        XCTAssertEqual(try edited.validate().get().apiPort, 13030)

        func problems(_ draft: PrinterDraft) -> [PrinterDraft.Field: String] {
            if case .failure(let problems) = draft.printers() { return problems.messages }
            return [:]
        }
        XCTAssertEqual(problems(PrinterDraft(kind: .elegoo, name: "CC", host: "")),
                       [.host: "Enter the printer's IP address (Settings → Network on the printer)."])
        XCTAssertEqual(problems(PrinterDraft(kind: .elegoo, name: "CC", host: "<b>cc</b>")),
                       [.host: "\"<b>cc</b>\" is not an IP address or host name."])
        var port = PrinterDraft(kind: .elegoo, name: "CC", host: "10.0.0.6")
        port.apiPort = "70000"
        XCTAssertEqual(problems(port), [.apiPort: "A port is a number from 1 to 65535; leave it empty for 3030."])
    }

    func testGo2RTCGetsItsCamera() {
        let yaml = Go2RTCExport.yaml(for: [carbon, Printer(name: "No address", kind: .elegoo)])
        XCTAssertTrue(yaml.contains(#""carbon_workshop": "http://192.168.1.40:3031/video""#), yaml)
        XCTAssertTrue(yaml.contains("# no_address: left out, its address is missing or invalid"), yaml)
    }
}
