import PrinterKit
import TestSupport
import XCTest

/// Reading a Flashforge printer's answer to the ask on 225.0.0.9:19000 (PROTOCOLS.md §13): the
/// Adventurer 5M series' 276 bytes, the Adventurer 3/4's 140, and nothing else.
final class FlashforgeDiscoveryTests: XCTestCase {
    private func parse(_ bytes: [UInt8], sender: String = "192.0.2.50") -> DiscoveredPrinter? {
        DiscoveryParser.parse(bytes, sender: sender)
    }

    func testReadsAnAdventurer5MProsAnswer() throws {
        let printer = try XCTUnwrap(parse(DiscoveryAnswers.flashforge(name: "Adventurer 5M Pro", serial: "SNMOMC9900728")))
        XCTAssertEqual(printer.family, "flashforge")
        XCTAssertEqual(printer.familyTitle, "Flashforge")
        XCTAssertEqual(printer.identifier, "SNMOMC9900728")
        XCTAssertEqual(printer.name, "Adventurer 5M Pro")
        XCTAssertEqual(printer.modelName, "Adventurer 5M Pro")
        XCTAssertEqual(printer.modelCode, "5A02")
        XCTAssertEqual(printer.address, "192.0.2.50")
    }

    func testTellsTheModelByProductTypeOrName() throws {
        XCTAssertEqual(try XCTUnwrap(parse(DiscoveryAnswers.flashforge(name: "Garage", productType: 0x5A02))).modelName, "Adventurer 5M")
        XCTAssertEqual(try XCTUnwrap(parse(DiscoveryAnswers.flashforge(name: "AD5X", productType: 0x0000))).modelName, "AD5X")
        XCTAssertNil(try XCTUnwrap(parse(DiscoveryAnswers.flashforge(name: "Garage", productType: 0x1234))).modelName)
    }

    func testReadsAnAdventurer3sOlderAnswerItsAddressForItsIdentifier() throws {
        let printer = try XCTUnwrap(parse(DiscoveryAnswers.olderFlashforge(name: "Adventurer 3"), sender: "192.0.2.51"))
        XCTAssertEqual(printer.name, "Adventurer 3")
        XCTAssertEqual(printer.modelName, "Adventurer 3")
        XCTAssertEqual(printer.identifier, "192.0.2.51")
    }

    func testRefusesOtherSizesAndEmptyOrInvalidFields() {
        let answer = DiscoveryAnswers.flashforge()
        var noName = answer
        noName.replaceSubrange(0..<0x84, with: [UInt8](repeating: 0, count: 0x84))
        var badUTF8 = answer
        badUTF8[0] = 0xFF
        let refused: [(String, [UInt8])] = [
            ("one byte short", Array(answer.dropLast())),
            ("one byte long", answer + [0]),
            ("a Bambu-sized garbage", [UInt8](repeating: 0x41, count: 300)),
            ("no name", noName),
            ("invalid UTF-8 name", badUTF8),
            ("no serial", DiscoveryAnswers.flashforge(serial: "")),
            ("a serial with markup", DiscoveryAnswers.flashforge(serial: "<i>SN</i>")),
            ("an empty datagram (the ask)", []),
        ]
        for (what, bytes) in refused {
            XCTAssertNil(parse(bytes), what)
        }
    }
}
