@testable import PrinterKit
import XCTest

/// The discovered-printer table: one entry per serial, changes reported, silent printers forgotten.
final class DiscoveryTableTests: XCTestCase {
    private func printer(_ serial: String, _ name: String?, address: String = "192.0.2.10") -> DiscoveredPrinter {
        DiscoveredPrinter(serial: serial, address: address, modelCode: "C12", name: name)
    }

    func testReportsOnlyChangesAndKeysBySerial() {
        var table = DiscoveryTable(expiry: 60)
        XCTAssertTrue(table.record(printer("A1", "Left"), at: 0))
        XCTAssertFalse(table.record(printer("A1", "Left"), at: 5), "a repeat changes nothing visible")
        XCTAssertTrue(table.record(printer("A1", "Left", address: "192.0.2.11"), at: 6))
        XCTAssertTrue(table.record(printer("A1", "Right", address: "192.0.2.11"), at: 7))
        XCTAssertEqual(table.printers, [printer("A1", "Right", address: "192.0.2.11")])
    }

    func testForgetsPrintersSilentForTheExpiry() {
        var table = DiscoveryTable(expiry: 60)
        _ = table.record(printer("A1", "Left"), at: 0)
        _ = table.record(printer("B2", "Right"), at: 30)
        XCTAssertEqual(table.nextExpiry, 60)
        XCTAssertFalse(table.expire(at: 59.9))
        XCTAssertTrue(table.expire(at: 60))
        XCTAssertEqual(table.printers.map(\.serial), ["B2"])
        XCTAssertEqual(table.nextExpiry, 90)
        _ = table.record(printer("B2", "Right"), at: 80)
        XCTAssertFalse(table.expire(at: 120), "an announcement renews the lease")
        XCTAssertTrue(table.expire(at: 140))
        XCTAssertEqual(table.printers, [])
        XCTAssertNil(table.nextExpiry)
    }

    func testSortsByNameThenSerial() {
        var table = DiscoveryTable(expiry: 60)
        for entry in [printer("S3", "printer 10"), printer("S2", "Printer 9"), printer("S9", nil),
                      printer("S1", "Printer 9"), printer("S4", "attic")] {
            _ = table.record(entry, at: 0)
        }
        XCTAssertEqual(table.printers.map(\.serial), ["S4", "S1", "S2", "S3", "S9"])
    }
}
