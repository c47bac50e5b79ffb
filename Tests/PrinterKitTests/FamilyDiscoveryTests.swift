import PrinterKit
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
        let kinds: [Printer.Kind] = [.bambuRTSPS(nil), .bambuJPEG(.p1s), .klipper, .octoprint, .creality(.k1), .generic]
        XCTAssertEqual(kinds.map(\.isDiscovered), [true, true, false, false, false, false])
    }
}
