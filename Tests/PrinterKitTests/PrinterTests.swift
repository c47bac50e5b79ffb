import Foundation
import PrinterKit
import StreamKit
import XCTest

/// A saved printer turned into the stream to open, and written to and read from JSON.
final class PrinterTests: XCTestCase {
    /// Each family says what its printers' secret is called: the keyring's label, the dialog's
    /// hint and the removal question all read it from there.
    func testEachFamilyNamesItsSecret() {
        let kinds: [Printer.Kind] = [.bambuRTSPS(.x1c), .bambuJPEG(nil), .klipper, .octoprint, .creality(.k2), .generic]
        XCTAssertEqual(kinds.map(\.secretNoun), [.accessCode, .accessCode, .apiKey, .apiKey, nil, nil])
        XCTAssertEqual(kinds.map(\.displayName), ["X1 Carbon", "Bambu Lab", "Klipper", "OctoPrint", "Creality", nil])
    }

    func testBambuRTSPSPrinterOpensItsRTSPSStream() throws {
        XCTAssertEqual(try Fixtures.x1c.source(of: Fixtures.x1c.cameras[0]),
                       .rtsp(URL(string: "rtsps://bblp:12345678@192.168.1.20:322/streaming/live/1")!))
    }

    func testBambuJPEGPrinterAddressesPort6000() throws {
        XCTAssertEqual(try BambuCamera.jpegURL(host: " printer-p1s.lan ", accessCode: "abcdEF12"),
                       "bambu-jpeg://printer-p1s.lan:6000?code=abcdEF12")
        XCTAssertEqual(try BambuCamera.jpegURL(host: "fd00::5", accessCode: "abcdEF12"),
                       "bambu-jpeg://[fd00::5]:6000?code=abcdEF12")
        let source = try Fixtures.p1s.source(of: Fixtures.p1s.cameras[0])
        XCTAssertEqual(source, .bambuJPEG(host: "printer-p1s.lan", port: 6000, accessCode: "abcdEF12"))
        XCTAssertFalse(source.description.contains("abcdEF12"), source.description)
        let ipv6 = Printer(name: "A1", kind: .bambuJPEG(.a1), host: "fd00::5", accessCode: "abcdEF12")
        XCTAssertEqual(try ipv6.source(of: ipv6.cameras[0]), .bambuJPEG(host: "fd00::5", port: 6000, accessCode: "abcdEF12"))
    }

    func testGenericPrinterOpensItsURL() throws {
        XCTAssertEqual(try Fixtures.webcam.source(of: Fixtures.webcam.cameras[0]), .http(URL(string: "http://192.168.1.40:8080/?action=stream")!))
        let broken = Printer(name: "cam", kind: .generic, cameras: [PrinterCamera(url: "ftp://cam")])
        XCTAssertThrowsError(try broken.source(of: broken.cameras[0])) { XCTAssertEqual($0 as? SourceError, .unsupportedScheme("ftp")) }
    }

    func testBambuPrinterWithoutItsCodeSaysSo() {
        var printer = Fixtures.x1c
        printer.accessCode = ""
        XCTAssertThrowsError(try printer.source(of: printer.cameras[0])) { XCTAssertEqual($0 as? BambuCamera.InputError, .emptyAccessCode) }
    }

    func testKindFollowsTheModelsCamera() {
        XCTAssertEqual(Printer.Kind.bambu(.p2s), .bambuRTSPS(.p2s))
        XCTAssertEqual(Printer.Kind.bambu(.a1mini), .bambuJPEG(.a1mini))
        XCTAssertEqual(Printer.Kind.bambu(.h2c).model, .h2c)
        XCTAssertFalse(Printer.Kind.generic.isBambu)
    }

    func testDescriptionHidesCodesAndURLPasswords() {
        XCTAssertFalse("\(Fixtures.x1c)".contains("12345678"))
        XCTAssertTrue("\(Fixtures.x1c)".contains("X1C workshop"))
        let camera = Printer(name: "cam", kind: .generic, cameras: [PrinterCamera(url: "rtsp://admin:hunter22@10.0.0.9/live")])
        XCTAssertFalse(String(reflecting: camera).contains("hunter22"))
        XCTAssertTrue("\(camera)".contains("rtsp://admin:***@10.0.0.9/live"))
        let typed = Printer(name: "P1P", kind: .generic, cameras: [PrinterCamera(url: "bambu-jpeg://10.0.0.7?code=pw998877")])
        XCTAssertFalse("\(typed)".contains("pw998877"), "\(typed)")
    }

    func testUnknownModelIsDroppedButUnknownKindIsRejected() throws {
        let id = UUID()
        let newer = #"{"id": "\#(id)", "name": "Next", "kind": "bambuRTSPS", "model": "Z9", "host": "10.0.0.2"}"#
        XCTAssertEqual(try JSONDecoder().decode(Printer.self, from: Data(newer.utf8)),
                       Printer(id: id, name: "Next", kind: .bambuRTSPS(nil), host: "10.0.0.2", cameras: [.own(id: id)]))
        let laser = #"{"id": "\#(id)", "name": "Laser", "kind": "laser"}"#
        XCTAssertThrowsError(try JSONDecoder().decode(Printer.self, from: Data(laser.utf8)))
    }
}
