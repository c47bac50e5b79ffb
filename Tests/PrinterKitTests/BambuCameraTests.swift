import PrinterKit
import StreamKit
import XCTest

/// Building a Bambu printer's stream from its address and access code, and naming its model.
final class BambuCameraTests: XCTestCase {
    func testBuildsTheRTSPSURLAPrinterServes() throws {
        let source = try BambuCamera.rtspsSource(host: " 192.168.1.20 ", accessCode: "12345678")
        XCTAssertEqual(source, .rtsp(URL(string: "rtsps://bblp:12345678@192.168.1.20:322/streaming/live/1")!))
        XCTAssertEqual(source.description, "rtsps://bblp:***@192.168.1.20:322/streaming/live/1")
        XCTAssertEqual(try BambuCamera.rtspsSource(host: "fe80::1", accessCode: "abcdEF12"),
                       .rtsp(URL(string: "rtsps://bblp:abcdEF12@[fe80::1]:322/streaming/live/1")!))
    }

    /// A Bambu printer's camera speaks of its access code and LAN Only Liveview, as its family words
    /// it (StreamKit no longer guesses it from the user name); any other camera of its URL.
    func testItsCameraFailuresAreWordedInTheBambuFamilysTerms() throws {
        let printer = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "192.168.1.20", accessCode: "12345678")
        let jpeg = Printer(name: "P1S", kind: .bambuJPEG(.p1s), host: "192.168.1.21", accessCode: "12345678")
        for own in [try printer.source(of: printer.cameras[0]), try jpeg.source(of: jpeg.cameras[0])] {
            let terms = try XCTUnwrap(Printer.cameraTerms(of: own), "\(own)")
            XCTAssertEqual(StreamFailure.authRejected.userMessage(in: terms), "Access code rejected — check it on the printer's screen.")
            XCTAssertTrue(StreamFailure.refused.userMessage(in: terms).contains("LAN Only Liveview"))
            XCTAssertTrue(StreamFailure.timeout.userMessage(in: terms).hasPrefix("The printer did not answer in time"))
            XCTAssertEqual(terms.editCredentials, "Edit Access Code…")
        }
        for url in ["rtsps://admin:secret@192.168.1.30:322/streaming/live/1", "rtsp://bblp:x@192.168.1.30/live",
                    "http://192.168.1.30/webcam/?action=stream"] {
            XCTAssertNil(Printer.cameraTerms(of: try StreamSource.parse(url)), url)
        }
    }

    func testRejectsBadInputWithSpecificMessages() {
        let cases: [(String, String, BambuCamera.InputError)] = [
            ("", "12345678", .emptyHost),
            ("printer one", "12345678", .invalidHost("printer one")),
            ("192.168.1.20", "1234", .accessCodeLength(4)),
            ("192.168.1.20", "1234567!", .accessCodeCharacters),
        ]
        for (host, code, expected) in cases {
            XCTAssertThrowsError(try BambuCamera.rtspsSource(host: host, accessCode: code)) { error in
                XCTAssertEqual(error as? BambuCamera.InputError, expected)
                XCTAssertFalse("\(error)".contains(code) && code.count == 8, "the code is never echoed")
            }
        }
    }

    func testModelCodesFromDiscovery() {
        XCTAssertEqual(BambuModel(rawValue: "BL-P001")?.displayName, "X1 Carbon")
        XCTAssertEqual(BambuModel(rawValue: "N7")?.camera, .rtsps)
        XCTAssertEqual(BambuModel(rawValue: "C12")?.camera, .jpegOverTLS)
        XCTAssertEqual(BambuModel(rawValue: "N1")?.displayName, "A1 mini")
        XCTAssertNil(BambuModel(rawValue: "ZZ9"))
        XCTAssertEqual(BambuModel.allCases.filter { $0.camera == .rtsps }.count, 8)
    }
}
