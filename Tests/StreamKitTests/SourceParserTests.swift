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
            ("bambu-jpeg://192.168.1.9?code=12345678", .reservedScheme("bambu-jpeg"), "not supported yet"),
            ("rtsp://:554/live", .missingHost, "no printer address"),
            ("rtsp://host:99999/live", .invalidPort("99999"), "Port 99999 is not valid"),
            ("rtsp://host:abc/live", .invalidPort("abc"), "Port abc is not valid"),
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
    }

    func testSecretAndRedactedDescription() throws {
        let source = try StreamSource.parse("rtsps://bblp:AbC12345@10.0.0.7:322/streaming/live/1")
        XCTAssertEqual(source.secret, "AbC12345")
        XCTAssertEqual(source.description, "rtsps://bblp:***@10.0.0.7:322/streaming/live/1")
        XCTAssertNil(try StreamSource.parse("rtsp://10.0.0.7/live").secret)
    }
}
