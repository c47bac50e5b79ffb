import StreamKit
import XCTest

final class RedactorTests: XCTestCase {
    func testMasksKnownSecretsAnywhere() {
        let redactor = Redactor(secrets: ["12345678", "p@ss word"])
        XCTAssertEqual(redactor.redact("auth failed for code 12345678"), "auth failed for code ***")
        XCTAssertEqual(redactor.redact("user bblp pass p%40ss%20word"), "user bblp pass ***")
        XCTAssertEqual(redactor.redact("nothing secret"), "nothing secret")
    }

    func testBambuAccessCodeIsMaskedInDescriptionAndText() throws {
        let source = try StreamSource.parse("bambu-jpeg://192.168.1.9?code=Ab12Cd34")
        XCTAssertEqual(source.secret, "Ab12Cd34")
        XCTAssertEqual(source.description, "bambu-jpeg://192.168.1.9:6000?code=***")
        XCTAssertEqual(try StreamSource.parse("bambu-jpeg://[fe80::1]:6001?code=a%20b").description,
                       "bambu-jpeg://[fe80::1]:6001?code=***")
        let redactor = Redactor(secrets: [source.secret].compactMap { $0 })
        XCTAssertEqual(redactor.redact("printer said no to Ab12Cd34"), "printer said no to ***")
    }

    func testMasksAnyURLPassword() {
        XCTAssertEqual(Redactor.scrubUserInfo("open rtsps://bblp:zz9@1.2.3.4:322/x failed"),
                       "open rtsps://bblp:***@1.2.3.4:322/x failed")
        XCTAssertEqual(Redactor.scrubUserInfo("http://user@host/x"), "http://user@host/x")
    }
}
