import StreamKit
import XCTest

final class TerminalTextTests: XCTestCase {
    func testControlCharactersAreWrittenOut() {
        XCTAssertEqual(TerminalText.safe("400 \u{1B}]0;pwned\u{07}\u{1B}[31mBad\u{9B}2J\u{202E}x\ny"),
                       #"400 \x1B]0;pwned\x07\x1B[31mBad\x9B2J\u{202E}x\x0Ay"#)
        XCTAssertEqual(TerminalText.safe("resolution   320×240 — ok"), "resolution   320×240 — ok")
    }

    func testJSONKeepsItsMeaning() throws {
        let json = "{\n  \"message\" : \"a\\u001b\u{9B}b\u{202E}\"\n}"
        let safe = TerminalText.safeJSON(json)
        XCTAssertEqual(safe, "{\n  \"message\" : \"a\\u001b\\u009Bb\\u202E\"\n}")
        let decoded = try JSONSerialization.jsonObject(with: Data(safe.utf8)) as? [String: String]
        XCTAssertEqual(decoded?["message"], "a\u{1B}\u{9B}b\u{202E}")
    }
}
