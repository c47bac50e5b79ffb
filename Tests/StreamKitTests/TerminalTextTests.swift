import StreamKit
import XCTest

final class TerminalTextTests: XCTestCase {
    func testControlCharactersAreWrittenOut() {
        XCTAssertEqual(TerminalText.safe("400 \u{1B}]0;pwned\u{07}\u{1B}[31mBad\u{9B}2J\u{202E}x\ny"),
                       #"400 \x1B]0;pwned\x07\x1B[31mBad\x9B2J\u{202E}x\x0Ay"#)
        XCTAssertEqual(TerminalText.safe("resolution   320×240 — ok"), "resolution   320×240 — ok")
    }

    /// Separators a terminal shows as nothing (or breaks a line at) and marks that reorder their
    /// neighbours are written out too.
    func testSeparatorsAndMarksAreWrittenOut() throws {
        XCTAssertEqual(TerminalText.safe("job\u{2028}state  idle\u{2029}x\u{200E}1\u{200F}2"),
                       #"job\u{2028}state  idle\u{2029}x\u{200E}1\u{200F}2"#)
        let json = "{\"job\":\"a\u{2028}b\u{2029}c\u{200E}d\u{200F}\"}"
        let safe = TerminalText.safeJSON(json)
        XCTAssertEqual(safe, #"{"job":"a\u2028b\u2029c\u200Ed\u200F"}"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(safe.utf8)) as? [String: String]
        XCTAssertEqual(decoded?["job"], "a\u{2028}b\u{2029}c\u{200E}d\u{200F}")
    }

    func testJSONKeepsItsMeaning() throws {
        let json = "{\n  \"message\" : \"a\\u001b\u{9B}b\u{202E}\"\n}"
        let safe = TerminalText.safeJSON(json)
        XCTAssertEqual(safe, "{\n  \"message\" : \"a\\u001b\\u009Bb\\u202E\"\n}")
        let decoded = try JSONSerialization.jsonObject(with: Data(safe.utf8)) as? [String: String]
        XCTAssertEqual(decoded?["message"], "a\u{1B}\u{9B}b\u{202E}")
    }
}
