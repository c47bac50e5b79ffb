import StreamKit
import XCTest

final class RedactorTests: XCTestCase {
    func testMasksKnownSecretsAnywhere() {
        let redactor = Redactor(secrets: ["12345678", "p@ss word"])
        XCTAssertEqual(redactor.redact("auth failed for code 12345678"), "auth failed for code ***")
        XCTAssertEqual(redactor.redact("user bblp pass p%40ss%20word"), "user bblp pass ***")
        XCTAssertEqual(redactor.redact("nothing secret"), "nothing secret")
    }

    func testMasksAnyURLPassword() {
        XCTAssertEqual(Redactor.scrubUserInfo("open rtsps://bblp:zz9@1.2.3.4:322/x failed"),
                       "open rtsps://bblp:***@1.2.3.4:322/x failed")
        XCTAssertEqual(Redactor.scrubUserInfo("http://user@host/x"), "http://user@host/x")
    }
}
