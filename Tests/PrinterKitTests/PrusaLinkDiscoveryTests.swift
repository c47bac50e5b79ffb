@testable import PrinterKit
import TestSupport
import XCTest

/// Reading a PrusaLink responder's DNS-SD answer (RFC 6762, RFC 6763), and nothing else: the
/// question Layerwatch asks, the instance's name, the serial or host as the identifier, the
/// sender's address; names that point forward, loop or run out, and anything not an answer, refused.
final class PrusaLinkDiscoveryTests: XCTestCase {
    private func parse(_ bytes: [UInt8], sender: String = "192.0.2.40") -> DiscoveredPrinter? {
        DiscoveryParser.parse(bytes, sender: sender)
    }

    func testTheAskIsOnePTRQuestionToTheMDNSPort() throws {
        let ask = try XCTUnwrap(PrusaLinkDiscovery().asks.first)
        XCTAssertEqual(ask.port, 5353)
        XCTAssertEqual(ask.address, "224.0.0.251")
        XCTAssertEqual(ask.payload.prefix(12), [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], "a query of one question")
        XCTAssertEqual(String(decoding: ask.payload[12...], as: UTF8.self), "\u{0A}_prusalink\u{04}_tcp\u{05}local\u{00}\u{00}\u{0C}\u{00}\u{01}")
        XCTAssertNil(parse(ask.payload), "the question itself is no answer")
        XCTAssertEqual(Printer.Kind.prusaLink.family.discovery?.id, "prusalink")
    }

    func testReadsAnAnswerAtItsSendersAddress() throws {
        let printer = try XCTUnwrap(parse(DiscoveryAnswers.prusaLink(name: "Core One <b>bay</b>", host: "prusa-coreone")))
        XCTAssertEqual(printer.family, "prusalink")
        XCTAssertEqual(printer.familyTitle, "Prusa")
        XCTAssertEqual(printer.name, "Core One <b>bay</b>", "kept as text; shown as text")
        XCTAssertEqual(printer.identifier, "prusa-coreone", "its host name, without a serial")
        XCTAssertEqual(printer.address, "192.0.2.40", "the sender, not the A record's 192.0.2.77")
        XCTAssertEqual(printer.kind, .prusaLink)
        let withSerial = try XCTUnwrap(parse(DiscoveryAnswers.prusaLink(txt: ["serial=CZPX4523X004XK12345", "model=MK4"])))
        XCTAssertEqual(withSerial.identifier, "CZPX4523X004XK12345")
        XCTAssertEqual(withSerial.modelName, "MK4")
    }

    func testRefusesWhatIsNotAnAnswer() {
        let good = DiscoveryAnswers.prusaLink()
        var query = good
        query[2] = 0  // not a response
        var forward = good
        let firstPointer = forward.firstIndex(of: 0xC0)!
        forward[firstPointer + 1] = UInt8(forward.count - 1)  // a pointer forward
        var looping = good
        looping[firstPointer + 1] = UInt8(firstPointer)  // a pointer to itself
        var manyRecords = good
        manyRecords[7] = 200
        var other = good
        other[13] = UInt8(ascii: "X")  // _Xrusalink: another service
        let refused: [(String, [UInt8])] = [
            ("a query", query), ("a pointer forward", forward), ("a pointer loop", looping), ("200 records", manyRecords),
            ("another service", other), ("truncated", Array(good.prefix(40))), ("the header only", Array(good.prefix(12))),
            ("JSON", Array(#"{"Data":{}}"#.utf8)), ("nothing", []),
        ]
        for (what, bytes) in refused {
            XCTAssertNil(parse(bytes), what)
        }
        XCTAssertNil(parse(good, sender: "fe80::1"), "an IPv4 sender only")
        XCTAssertNil(try XCTUnwrap(parse(DiscoveryAnswers.prusaLink(name: "Bay\u{7}3"))).name, "a control character drops the name")
    }
}
