import StreamKit
import XCTest

/// The URL-validation table: what users type, and what Layerwatch makes of it.
final class SourceParserTests: XCTestCase {
    func testAcceptedSources() throws {
        let accepted: [(String, StreamSource)] = [
            ("rtsps://bblp:12345678@192.168.1.20:322/streaming/live/1",
             .rtsp(URL(string: "rtsps://bblp:12345678@192.168.1.20:322/streaming/live/1")!)),
            ("  rtsp://printer.local:8554/cam  ", .rtsp(URL(string: "rtsp://printer.local:8554/cam")!)),
            ("RTSP://10.0.0.5/live", .rtsp(URL(string: "RTSP://10.0.0.5/live")!)),
            ("http://192.168.1.30/webcam/?action=stream", .http(URL(string: "http://192.168.1.30/webcam/?action=stream")!)),
            ("https://cam.example:8443/snapshot.jpg", .http(URL(string: "https://cam.example:8443/snapshot.jpg")!)),
            ("rtsp://[::1]:8554/cam", .rtsp(URL(string: "rtsp://[::1]:8554/cam")!)),
            ("/home/me/print.mp4", .file(path: "/home/me/print.mp4", loop: false)),
            ("file:///tmp/clip.mkv", .file(path: "/tmp/clip.mkv", loop: false)),
            ("http://host/has space", .http(URL(string: "http://host/has%20space")!)),
            ("bambu-jpeg://192.168.1.9?code=12345678", .bambuJPEG(host: "192.168.1.9", port: 6000, accessCode: "12345678")),
            ("BAMBU-JPEG://printer.local:6001/?code=ab%26cd", .bambuJPEG(host: "printer.local", port: 6001, accessCode: "ab&cd")),
            ("bambu-jpeg://[fe80::1]?code=x1&other=y", .bambuJPEG(host: "fe80::1", port: 6000, accessCode: "x1")),
        ]
        for (text, expected) in accepted {
            XCTAssertEqual(try StreamSource.parse(text), expected, text)
        }
        XCTAssertEqual(try StreamSource.parse("/tmp/a.mp4", loopFiles: true), .file(path: "/tmp/a.mp4", loop: true))
    }

    func testRejectedSourcesSayWhatIsWrong() {
        let rejected: [(String, SourceError, String)] = [
            ("", .empty, "Enter a camera URL"),
            ("   ", .empty, "Enter a camera URL"),
            ("192.168.1.20", .missingScheme("192.168.1.20"), "start it with rtsps://"),
            ("ftp://host/file", .unsupportedScheme("ftp"), "cannot open ftp://"),
            ("bambu-jpeg://192.168.1.9", .missingAccessCode, "bambu-jpeg://HOST?code=ACCESSCODE"),
            ("bambu-jpeg://192.168.1.9?code=", .missingAccessCode, "LAN access code"),
            ("bambu-jpeg://192.168.1.9?kode=12345678", .missingAccessCode, "LAN access code"),
            ("bambu-jpeg://?code=12345678", .missingHost, "no printer address"),
            ("bambu-jpeg://192.168.1.9:70000?code=12345678", .invalidPort("70000"), "P1/A1 cameras 6000"),
            ("bambu-jpeg://192.168.1.9/live?code=12345678",
             .malformed("a bambu-jpeg:// URL has no path: bambu-jpeg://HOST[:PORT]?code=ACCESSCODE"), "has no path"),
            ("bambu-jpeg://bblp:12345678@192.168.1.9",
             .malformed("give the access code as ?code=ACCESSCODE after the host, not before it"), "?code=ACCESSCODE"),
            ("bambu-jpeg://192.168.1.9?code=\(String(repeating: "9", count: 33))",
             .malformed("an access code has at most 32 characters"), "at most 32"),
            ("rtsp://:554/live", .missingHost, "no printer address"),
            ("rtsp://host:99999/live", .invalidPort("99999"), "Port 99999 is not valid"),
            ("rtsp://host:abc/live", .invalidPort(nil), "The port after the host is not valid"),
            ("rtsp://host:0/live", .invalidPort("0"), "1 to 65535"),
        ]
        for (text, expected, phrase) in rejected {
            XCTAssertThrowsError(try StreamSource.parse(text), text) { error in
                XCTAssertEqual(error as? SourceError, expected, text)
                XCTAssertTrue("\(error)".contains(phrase), "\"\(error)\" should say \"\(phrase)\"")
            }
        }
    }

    func testRejectedURLNeverEchoesTheAccessCode() {
        XCTAssertThrowsError(try StreamSource.parse("bblp:SECRET99@192.168.1.20")) { error in
            XCTAssertFalse("\(error)".contains("SECRET99"), "\(error)")
            XCTAssertTrue("\(error)".contains("***@192.168.1.20"), "\(error)")
        }
        for text in ["bambu-jpeg://bblp:SECRET99@192.168.1.9", "bambu-jpeg://192.168.1.9/x?code=SECRET99"] {
            XCTAssertThrowsError(try StreamSource.parse(text)) { error in
                XCTAssertFalse("\(error)".contains("SECRET99"), "\(error)")
            }
        }
    }

    func testSecretAndRedactedDescription() throws {
        let source = try StreamSource.parse("rtsps://bblp:AbC12345@10.0.0.7:322/streaming/live/1")
        XCTAssertEqual(source.secrets, ["AbC12345"])
        XCTAssertEqual(source.description, "rtsps://bblp:***@10.0.0.7:322/streaming/live/1")
        XCTAssertEqual(try StreamSource.parse("rtsp://10.0.0.7/live").secrets, [])
    }

    func testBambuAddressesOfOnePrinterShareOneSession() throws {
        let registry = SessionRegistry()
        let typed = try StreamSource.parse("bambu-jpeg://192.168.1.9?code=12345678")
        let explicit = try StreamSource.parse("bambu-jpeg://192.168.1.9:6000/?code=12345678")
        XCTAssertEqual(typed, explicit)
        XCTAssertTrue(registry.session(for: typed) === registry.session(for: explicit))
        XCTAssertFalse(registry.session(for: typed) === registry.session(for: try StreamSource.parse("bambu-jpeg://192.168.1.10?code=12345678")))
    }

    func testAccessCodesTypedInTheWrongPlaceAreNeverEchoed() {
        for text in ["rtsps://bblp:12345678", "rtsp://admin:se/cret@host/x", "192.168.1.20?code=12345678",
                     "bblp:12345678@192.168.1.20", "rtsps://bblp:Ab12Cd34"] {
            XCTAssertThrowsError(try StreamSource.parse(text), text) { error in
                for secret in ["12345678", "se/cret", "Ab12Cd34"] {
                    XCTAssertFalse("\(error)".contains(secret), "\(text) → \(error)")
                }
            }
        }
    }
}
