import Foundation
import PrinterKit
import StreamKit
import XCTest

/// The add/edit dialog's inline validation: which field is wrong and the message shown under it
/// (URL messages are StreamKit's own, checked here only for landing on the right field, masked).
final class PrinterDraftTests: XCTestCase {
    func testMessagesPerField() {
        let rtsps = Printer.Kind.bambuRTSPS(nil)
        let cases: [(PrinterDraft, [PrinterDraft.Field: String])] = [
            (PrinterDraft(kind: rtsps, name: "  ", host: "192.168.1.20", accessCode: "12345678"),
             [.name: "Enter a name for this printer, for example “X1C workshop”."]),
            (PrinterDraft(kind: rtsps, name: "X1C", host: "", accessCode: "12345678"),
             [.host: "Enter the printer's IP address (Settings → Network on the printer)."]),
            (PrinterDraft(kind: rtsps, name: "X1C", host: "printer one", accessCode: "12345678"),
             [.host: "\"printer one\" is not an IP address or host name."]),
            (PrinterDraft(kind: .bambuJPEG(.a1), name: "A1", host: "10.0.0.3", accessCode: ""),
             [.accessCode: "Enter the 8-character access code shown in the printer's network settings (LAN mode)."]),
            (PrinterDraft(kind: rtsps, name: "X1C", host: "10.0.0.3", accessCode: "1234567"),
             [.accessCode: "The access code has 8 characters; this one has 7."]),
            (PrinterDraft(kind: rtsps, name: "X1C", host: "10.0.0.3", accessCode: "1234567é"),
             [.accessCode: "The access code has only letters A–Z and digits."]),
            (PrinterDraft(kind: rtsps, name: "X1C", host: "10.0.0.3", accessCode: "12345678", serial: "00M-09"),
             [.serial: "A serial number has only letters A–Z and digits (it is on the printer's label); leave it empty if unsure."]),
            (PrinterDraft(kind: .bambuRTSPS(.p1s), name: "P1S", host: "10.0.0.3", accessCode: "12345678"),
             [.kind: "The P1S sends its camera as JPEG frames on port 6000: choose “Bambu Lab P1/A1”."]),
            (PrinterDraft(kind: .bambuJPEG(.x1c), name: "X1C", host: "10.0.0.3", accessCode: "12345678"),
             [.kind: "The X1 Carbon streams its camera over RTSPS: choose “Bambu Lab with RTSPS”."]),
            (PrinterDraft(kind: rtsps, name: "", host: "", accessCode: "abc"),
             [.name: "Enter a name for this printer, for example “X1C workshop”.",
              .host: "Enter the printer's IP address (Settings → Network on the printer).",
              .accessCode: "The access code has 8 characters; this one has 3."]),
            (PrinterDraft(kind: .generic, name: "Cam", cameras: [PrinterCamera(url: "")]),
             [.url: SourceError.empty.description]),
            (PrinterDraft(kind: .generic, name: "Cam", cameras: [PrinterCamera(url: "rtsp://admin:s3cretpw@")]),
             [.url: SourceError.missingHost.description]),
            (PrinterDraft(kind: .generic, name: "Cam", cameras: [PrinterCamera(url: "admin:s3cretpw@10.0.0.9/stream")]),
             [.url: SourceError.missingScheme("***@10.0.0.9/stream").description]),
            (PrinterDraft(kind: .generic, name: "Cam", cameras: [PrinterCamera(url: "http://10.0.0.9:99999/snapshot.jpg")]),
             [.url: SourceError.invalidPort("99999").description]),
        ]
        for (draft, expected) in cases {
            switch draft.validate() {
            case .success(let printer):
                XCTFail("accepted \(printer), expected \(expected)")
            case .failure(let problems):
                XCTAssertEqual(problems.messages, expected)
                for message in problems.messages.values {
                    XCTAssertFalse(draft.accessCode.count >= 3 && message.contains(draft.accessCode), message)
                    XCTAssertFalse(message.contains("s3cretpw"), message)
                }
            }
        }
    }

    func testValidFieldsMakeATrimmedPrinterKeepingItsID() throws {
        let id = UUID()
        let draft = PrinterDraft(id: id, kind: .bambuRTSPS(.h2d), name: " H2D ", host: " 192.168.1.21 ",
                                 accessCode: " A1b2C3d4 ", serial: " 0948AB123400001 ")
        let printer = try draft.validate().get()
        XCTAssertEqual(printer, Printer(id: id, name: "H2D", kind: .bambuRTSPS(.h2d), host: "192.168.1.21",
                                        serial: "0948AB123400001", accessCode: "A1b2C3d4", cameras: printer.cameras))
        XCTAssertEqual(printer.cameras.map(\.url), [nil], "its own camera")

        let camera = try PrinterDraft(kind: .generic, name: "Cam", host: "ignored", accessCode: "ignored", serial: "X",
                                      cameras: [PrinterCamera(url: " rtsp://10.0.0.9:554/live ")]).validate().get()
        XCTAssertEqual(camera.cameras.map(\.url), ["rtsp://10.0.0.9:554/live"])
        XCTAssertEqual(camera.host, "")
        XCTAssertEqual(camera.accessCode, "")
        XCTAssertNil(camera.serial)
    }

    func testEditingShowsThePrintersFieldsAndSavesTheSamePrinter() throws {
        for printer in [Fixtures.x1c, Fixtures.p1s, Fixtures.webcam] {
            let draft = PrinterDraft(printer)
            XCTAssertEqual(draft.id, printer.id)
            XCTAssertEqual(try draft.validate().get(), printer)
        }
        XCTAssertEqual(PrinterDraft(Fixtures.x1c).serial, "00M09A350100123")
    }
}
