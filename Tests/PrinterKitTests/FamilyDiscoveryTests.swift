import PrinterKit
import TestSupport
import XCTest

/// Discovery asks the families: it listens where each family that can be discovered says its
/// printers announce themselves, and the dialog lists discovered printers for those families' kinds.
final class FamilyDiscoveryTests: XCTestCase {
    func testTheListenerHearsWhereBambuPrintersAnnounceThemselves() {
        // ../shared/PROTOCOLS.md §3: broadcast to 2021, multicast to 239.255.255.250:1990.
        XCTAssertEqual(PrinterDiscovery.Configuration().endpoints,
                       [.init(port: 2021), .init(port: 1990, multicastGroup: "239.255.255.250")])
        XCTAssertEqual(PrinterDiscovery.Endpoint.everyFamily, PrinterDiscovery.Endpoint.bambu, "each port once")
    }

    func testOnlyTheKindsOfADiscoveredFamilyAreDiscovered() {
        let kinds: [Printer.Kind] = [.bambuRTSPS(nil), .bambuJPEG(.p1s), .klipper, .octoprint, .creality(.k1), .elegoo, .generic]
        XCTAssertEqual(kinds.map(\.isDiscovered), [true, true, false, false, false, true, false])
    }

    /// A find's kind comes from the registry: a Bambu P1S's is the JPEG kind with its model, an
    /// unknown Bambu model's is none (it may be either kind), and an Elegoo find's is the family's
    /// one kind.
    func testAFindsKindIsResolvedThroughTheRegistry() throws {
        let p1s = DiscoveredPrinter(serial: "01P00A451601106", address: "192.0.2.21", modelCode: "C12")
        XCTAssertEqual(p1s.kind, .bambuJPEG(.p1s))
        let unknown = DiscoveredPrinter(serial: "01P00A451601106", address: "192.0.2.21", modelCode: "Z99")
        XCTAssertNil(unknown.kind)
        XCTAssertEqual(unknown.modelName, "Z99")
        let elegoo = try XCTUnwrap(DiscoveryParser.parse(DiscoveryAnswers.elegoo(), sender: "192.0.2.40"))
        XCTAssertEqual(elegoo.kind, .elegoo)
        XCTAssertEqual(elegoo.familyTitle, "Elegoo", "the Elegoo family declares its discovery")
        XCTAssertNotEqual(elegoo.key, DiscoveredPrinter(serial: elegoo.identifier, address: "192.0.2.40").key, "one key per family")
    }
}
