import Foundation
import TestSupport
import XCTest

/// `layerwatch discover --to 127.0.0.1` finding a Prusa printer: a fake PrusaLink responder on
/// 127.0.0.1:5353 (mDNS's port) answering the DNS-SD question for `_prusalink._tcp.local` the
/// command asks. Nothing is sent to the multicast address.
final class PrusaLinkDiscoverCommandTests: XCTestCase {
    func testAPrusaAnsweringTheDNSSDQuestionIsListed() throws {
        let question: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0] + Array("\u{0A}_prusalink\u{04}_tcp\u{05}local\u{00}\u{00}\u{0C}\u{00}\u{01}".utf8)
        guard let responder = LoopbackResponder(port: 5353, answer: { ask in
            ask == question ? [DiscoveryAnswers.prusaLink(name: "Core One bay 2", host: "prusa-coreone", txt: ["serial=CZPX4523X004XK12345"])] : nil
        }) else { throw XCTSkip("UDP port 5353 is taken on 127.0.0.1 (an mDNS responder runs here)") }
        defer { responder.stop() }
        let run = try CommandRun.product("layerwatch", ["discover", "--to", "127.0.0.1", "--seconds", "2", "--json"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let printers = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        let prusa = try XCTUnwrap(printers.first { $0["family"] as? String == "prusalink" }, run.stdout)
        XCTAssertEqual(prusa["name"] as? String, "Core One bay 2")
        XCTAssertEqual(prusa["id"] as? String, "CZPX4523X004XK12345")
        XCTAssertEqual(prusa["address"] as? String, "127.0.0.1", "the answer's sender, not its A record")
        XCTAssertEqual(prusa["familyName"] as? String, "Prusa")
        XCTAssertGreaterThanOrEqual(responder.asks.count, 1)
    }
}
