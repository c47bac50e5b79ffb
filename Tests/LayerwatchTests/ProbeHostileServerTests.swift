import Foundation
import TestSupport
import XCTest

/// `layerwatch probe` against servers whose error reason phrases carry terminal escapes (window
/// title, colours, C1 CSI, a right-to-left override): nothing of it reaches the terminal raw, and a
/// password in the URL's query is masked like one in its user part.
final class ProbeHostileServerTests: XCTestCase {
    private static let rawControls: [UInt8] = [0x1B, 0x07]

    func testAnRTSPReasonPhraseCannotDriveTheTerminal() throws {
        let server = try TestServer(script: "hostile_reason_server.py", arguments: ["--protocol", "rtsp"])
        let run = try CommandRun.product("layerwatch", ["probe", "rtsp://admin:Pa55word@127.0.0.1:\(server.port)/live?pwd=Hunter22"])
        XCTAssertEqual(run.status, 9, run.stdout + run.stderr)
        XCTAssertNotNil(server.waitFor("request", where: { $0.string("method") == "DESCRIBE" }), "the probe reached the error")
        // FFmpeg 5.1 reports an RTSP error by its status code alone; the reason must not slip through.
        assertTerminalSafe(run)
        XCTAssertTrue(run.stdout.contains("rtsp://admin:***@127.0.0.1:\(server.port)/live?pwd=***"), run.stdout)
    }

    func testAnHTTPReasonPhraseCannotDriveTheTerminalNorTheJSON() throws {
        let server = try TestServer(script: "hostile_reason_server.py", arguments: ["--protocol", "http"])
        let url = "http://127.0.0.1:\(server.port)/cgi-bin/mjpg?user=admin&pwd=Hunter22&api_key=K3yK3y"
        let text = try CommandRun.product("layerwatch", ["probe", url])
        XCTAssertNotEqual(text.status, 0)
        XCTAssertNotNil(server.waitFor("request"))
        assertTerminalSafe(text)
        XCTAssertTrue(text.stdout.contains(#"answered with error 500 \x1B]0;pwned\x07\x1B[31mBroken\x9B2J\u{202E}\x1B[0m"#),
                      "the reason is shown, its controls written out: \(text.stdout)")
        XCTAssertTrue(text.stdout.contains("pwd=***&api_key=***"), text.stdout)

        let json = try CommandRun.product("layerwatch", ["probe", url, "--json"])
        assertTerminalSafe(json)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)), json.stdout)
    }

    func testAnHTTPSCameraWithASelfSignedCertificateExitsAsUntrusted() throws {
        let server = try TestServer(script: "hostile_http_server.py", arguments: ["--tls", "self-signed"])
        let run = try CommandRun.product("layerwatch", ["probe", "https://admin:Pa55word@127.0.0.1:\(server.port)/stream"])
        XCTAssertEqual(run.status, 10, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("certificate is not trusted"), run.stdout)
        XCTAssertNil(server.waitFor("request", timeout: 1), "no request, so no password, reached the camera")
        XCTAssertFalse((run.stdout + run.stderr).contains("Pa55word"))
    }

    /// No ESC, BEL, C1 control or bidirectional override in anything printed, and no password.
    private func assertTerminalSafe(_ run: CommandRun, file: StaticString = #filePath, line: UInt = #line) {
        let output = run.stdout + run.stderr
        XCTAssertFalse(Array(output.utf8).contains { Self.rawControls.contains($0) }, output, file: file, line: line)
        XCTAssertFalse(output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E },
                       output, file: file, line: line)
        for secret in ["Pa55word", "Hunter22", "K3yK3y"] {
            XCTAssertFalse(output.contains(secret), "\(secret) in: \(output)", file: file, line: line)
        }
    }
}
