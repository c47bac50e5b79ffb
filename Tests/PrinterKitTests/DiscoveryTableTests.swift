@testable import PrinterKit
import XCTest

/// The discovered-printer table: one entry per serial, changes reported, silent printers forgotten.
final class DiscoveryTableTests: XCTestCase {
    private func printer(_ serial: String, _ name: String?, address: String = "192.0.2.10") -> DiscoveredPrinter {
        DiscoveredPrinter(serial: serial, address: address, modelCode: "C12", name: name)
    }

    func testReportsOnlyChangesAndKeysBySerial() {
        var table = DiscoveryTable(expiry: 60, addressHold: 10)
        XCTAssertTrue(table.record(printer("A1", "Left"), at: 0))
        XCTAssertFalse(table.record(printer("A1", "Left"), at: 5), "a repeat changes nothing visible")
        XCTAssertTrue(table.record(printer("A1", "Right"), at: 7))
        XCTAssertEqual(table.printers, [printer("A1", "Right")])
    }

    func testASerialKeepsItsFirstAddressUntilThatHostFallsSilent() {
        var table = DiscoveryTable(expiry: 60, addressHold: 10)
        XCTAssertTrue(table.record(printer("A1", "Left"), at: 0))
        XCTAssertFalse(table.record(printer("A1", "Impostor", address: "192.0.2.66"), at: 1), "another host is ignored")
        XCTAssertFalse(table.record(printer("A1", "Left"), at: 8))
        XCTAssertFalse(table.record(printer("A1", "Impostor", address: "192.0.2.66"), at: 17.9), "not silent for 10 s yet")
        XCTAssertEqual(table.printers, [printer("A1", "Left")])
        XCTAssertEqual(table.nextExpiry, 68, "the ignored host's announcements renew nothing")
        XCTAssertTrue(table.record(printer("A1", "Moved", address: "192.0.2.11"), at: 18), "silent for 10 s: it moved")
        XCTAssertEqual(table.printers, [printer("A1", "Moved", address: "192.0.2.11")])
        XCTAssertFalse(table.record(printer("A1", "Left"), at: 19), "now the old address is the other host")
    }

    func testAFullTableMakesTheBusiestHostGiveWay() {
        var table = DiscoveryTable(expiry: 60, addressHold: 10)
        XCTAssertTrue(table.record(printer("REAL1", "Real", address: "192.0.2.10"), at: 0))
        for index in 0..<(DiscoveryTable.capacity - 1) {
            _ = table.record(printer("FAKE\(index)", "Fake \(index)", address: "192.0.2.66"), at: 1 + Double(index))
        }
        XCTAssertEqual(table.printers.count, DiscoveryTable.capacity)
        XCTAssertTrue(table.record(printer("FAKE999", "Fake 999", address: "192.0.2.66"), at: 100))
        XCTAssertEqual(table.printers.count, DiscoveryTable.capacity, "never more than the capacity")
        XCTAssertTrue(table.printers.contains { $0.serial == "REAL1" }, "the real printer, heard longest ago, stays")
        XCTAssertFalse(table.printers.contains { $0.serial == "FAKE0" }, "the flooding host's oldest made way")
        XCTAssertTrue(table.record(printer("REAL2", "Second", address: "192.0.2.11"), at: 101))
        XCTAssertEqual(Set(table.printers.filter { $0.address != "192.0.2.66" }.map(\.serial)), ["REAL1", "REAL2"])
    }

    func testForgetsPrintersSilentForTheExpiry() {
        var table = DiscoveryTable(expiry: 60, addressHold: 10)
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
        var table = DiscoveryTable(expiry: 60, addressHold: 10)
        for entry in [printer("S3", "printer 10"), printer("S2", "Printer 9"), printer("S9", nil),
                      printer("S1", "Printer 9"), printer("S4", "attic")] {
            _ = table.record(entry, at: 0)
        }
        XCTAssertEqual(table.printers.map(\.serial), ["S4", "S1", "S2", "S3", "S9"])
    }
}
