import PrinterKit
import TestSupport
import XCTest

/// Reading an Elegoo SDCP printer's answer to `M99999` (PROTOCOLS.md §11), and nothing else.
final class ElegooDiscoveryTests: XCTestCase {
    private func parse(_ bytes: [UInt8], sender: String = "192.0.2.40") -> DiscoveredPrinter? {
        DiscoveryParser.parse(bytes, sender: sender)
    }

    func testReadsACentauriCarbonsAnswerAtItsSendersAddress() throws {
        let printer = try XCTUnwrap(parse(DiscoveryAnswers.elegoo(name: "Bay 3", mainboardID: "000000000001d9e4")))
        XCTAssertEqual(printer.family, "elegoo")
        XCTAssertEqual(printer.familyTitle, "Elegoo")
        XCTAssertEqual(printer.identifier, "000000000001d9e4")
        XCTAssertEqual(printer.name, "Bay 3")
        XCTAssertEqual(printer.modelName, "Centauri Carbon")
        XCTAssertEqual(printer.firmwareVersion, "V1.1.29")
        XCTAssertEqual(printer.address, "192.0.2.40", "the sender, not MainboardIP (192.0.2.31), which any host can write")
    }

    /// SDCP V1 printers (Saturn resin printers) nest the fields in `Data.Attributes`.
    func testReadsTheFieldsNestedInAttributes() throws {
        let answer = #"{"Id":"0a69ee780fbd40d7bfb95b312250bf46","Data":{"Attributes":{"Name":"Saturn","MachineName":"Saturn 3 Ultra","BrandName":"ELEGOO","MainboardIP":"192.0.2.9","MainboardID":"ca2f2b5a3b6d0e73","ProtocolVersion":"V1.0.0","FirmwareVersion":"V1.4.2"},"Status":{"CurrentStatus":0}}}"#
        let printer = try XCTUnwrap(parse(Array(answer.utf8)))
        XCTAssertEqual(printer.identifier, "ca2f2b5a3b6d0e73")
        XCTAssertEqual(printer.modelName, "Saturn 3 Ultra")
    }

    func testRefusesWhatIsNotAnAnswer() {
        let refused: [(String, [UInt8])] = [
            ("the ask itself", Array("M99999".utf8)),
            ("no MainboardID", Array(#"{"Id":"1","Data":{"Name":"CC","MachineName":"Centauri Carbon"}}"#.utf8)),
            ("an id with spaces and markup", DiscoveryAnswers.elegoo(mainboardID: "<b>x</b> y")),
            ("an id of 200 characters", DiscoveryAnswers.elegoo(mainboardID: String(repeating: "a", count: 200))),
            ("neither name nor machine", Array(#"{"Data":{"MainboardID":"abc"}}"#.utf8)),
            ("an array", Array(#"[{"Data":{"MainboardID":"abc","Name":"CC"}}]"#.utf8)),
            ("nested 5000 deep", Array(("{\"Data\":" + String(repeating: "[", count: 5000)).utf8)),
            ("truncated JSON", Array(DiscoveryAnswers.elegoo().dropLast(3))),
            ("invalid UTF-8", [0x7B, 0xFF, 0xFE, 0x7D]),
        ]
        for (what, bytes) in refused {
            XCTAssertNil(parse(bytes), what)
        }
        XCTAssertNil(parse(DiscoveryAnswers.elegoo(), sender: "printer.local"), "an IPv4 sender only")
    }

    func testAControlCharacterOrOverlongNameIsDroppedAndBidiControlsTakenOut() throws {
        XCTAssertNil(try XCTUnwrap(parse(DiscoveryAnswers.elegoo(name: "Bay\u{7}3"))).name)
        XCTAssertNil(try XCTUnwrap(parse(DiscoveryAnswers.elegoo(name: String(repeating: "N", count: 500)))).name)
        XCTAssertEqual(try XCTUnwrap(parse(DiscoveryAnswers.elegoo(name: "\u{202E}Bay 3\u{202C}"))).name, "Bay 3")
        XCTAssertEqual(try XCTUnwrap(parse(DiscoveryAnswers.elegoo(name: "<b>Bay</b> & 3"))).name, "<b>Bay</b> & 3", "kept as text; shown as text")
    }
}
