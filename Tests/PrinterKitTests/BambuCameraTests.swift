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
