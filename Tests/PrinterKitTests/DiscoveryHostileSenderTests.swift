import Foundation
import PrinterKit
import TestSupport
import XCTest

/// The discovery listener against hosts that lie: one re-announcing a known printer's serial from
/// elsewhere, one flooding fake printers. Every datagram goes to 127.0.0.1; the other "hosts" are
/// sockets bound to other loopback addresses (all of 127.0.0.0/8 is loopback on Linux).
final class DiscoveryHostileSenderTests: XCTestCase {
    private let queue = DispatchQueue(label: "discovery-hostile-tests")
    private var updates: DiscoveryUpdateLog!

    override func setUp() {
        updates = DiscoveryUpdateLog()
    }

    private func startListener(addressHold: TimeInterval = 30) throws -> UInt16 {
        let configuration = PrinterDiscovery.Configuration(bindAddress: "127.0.0.1", endpoints: [.init(port: 0)],
                                                           addressHold: addressHold, asks: [])  // hears only: no answer from another test's fake
        let discovery = PrinterDiscovery(configuration: configuration, executor: queue) { [updates] in updates!.append($0) }
        discovery.start()
        addTeardownBlock { discovery.stop() }
        guard case .listening(let ports, []) = discovery.state, let port = ports.first else {
            throw XCTSkip("not listening on loopback: \(discovery.state)")
        }
        return port
    }

    func testAnotherHostCannotMoveAKnownPrinterUntilThePrinterFallsSilent() throws {
        let port = try startListener(addressHold: 1)
        let printer = try AliasedLoopbackSender(source: "127.0.0.1")
        let impostor = try AliasedLoopbackSender(source: "127.0.0.2")
        printer.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Shelf P1S", location: "127.0.0.1"), to: port)
        XCTAssertNotNil(updates.wait { $0.map(\.address) == ["127.0.0.1"] })

        // The impostor re-announces the serial pointing at itself, then the printer is heard again
        // (and a second printer from the same host, to know both datagrams were read).
        impostor.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Impostor", location: "127.0.0.2"), to: port)
        // Longer than the listener's publish interval (0.25 s): an update the impostor caused would be out.
        Thread.sleep(forTimeInterval: 0.6)
        printer.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Shelf P1S", location: "127.0.0.1"), to: port)
        printer.send(SSDPAnnouncement.bytes(serial: "0300AA2A1500123", name: "Marker", location: "127.0.0.1"), to: port)
        let held = try XCTUnwrap(updates.wait { $0.count == 2 })
        let shelf = try XCTUnwrap(held.first { $0.serial == "01P00A451601106" })
        XCTAssertEqual(shelf.address, "127.0.0.1", "the first sender keeps the printer")
        XCTAssertEqual(shelf.name, "Shelf P1S", "nothing of the impostor's announcement is taken")
        XCTAssertFalse(updates.all.joined().contains { $0.address == "127.0.0.2" }, "no update ever showed the impostor")

        // The printer falls silent for longer than the hold: announcements from the new host win.
        let silentSince = Date()
        while Date().timeIntervalSince(silentSince) < 3, updates.latest?.first(where: { $0.serial == "01P00A451601106" })?.address != "127.0.0.2" {
            impostor.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Moved", location: "192.0.2.99"), to: port)
            Thread.sleep(forTimeInterval: 0.1)
        }
        let moved = try XCTUnwrap(updates.latest?.first { $0.serial == "01P00A451601106" })
        XCTAssertEqual(moved.address, "127.0.0.2", "a printer silent for the hold is followed to its new sender")
        XCTAssertEqual(moved.name, "Moved")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(silentSince), 0.9)
    }

    func testTheLocationHeaderNeverMovesAPrinter() throws {
        let port = try startListener()
        let printer = try AliasedLoopbackSender(source: "127.0.0.3")
        printer.send(SSDPAnnouncement.bytes(serial: "00M09A350100321", name: "Attic X1C", location: "192.0.2.21"), to: port)
        XCTAssertEqual(updates.wait { $0.count == 1 }?.first?.address, "127.0.0.3", "the sender, not the Location")
        printer.send(SSDPAnnouncement.bytes(serial: "00M09A350100321", name: "Attic X1C", location: "192.0.2.22"), to: port)
        printer.send(SSDPAnnouncement.bytes(serial: "00M09A350100321", name: "Attic X1C renamed", location: "192.0.2.22"), to: port)
        XCTAssertEqual(updates.wait { $0.first?.name == "Attic X1C renamed" }?.first?.address, "127.0.0.3")
    }

    func testAFloodFromOneHostIsCappedCoalescedAndCannotPushOutAnotherHostsPrinter() throws {
        let port = try startListener()
        let printer = try AliasedLoopbackSender(source: "127.0.0.2")
        let flooder = try AliasedLoopbackSender(source: "127.0.0.1")
        printer.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Real printer", location: "127.0.0.2"), to: port)
        XCTAssertNotNil(updates.wait { $0.count == 1 })

        let count = 3_000, started = Date()
        for index in 0..<count {
            flooder.send(SSDPAnnouncement.bytes(serial: String(format: "FAKE%06d", index), name: "Fake \(index)", location: "127.0.0.1"), to: port)
            if index % 20 == 19 { Thread.sleep(forTimeInterval: 0.01) } // about 2,000 a second
        }
        let flooded = Date().timeIntervalSince(started)
        let last = try XCTUnwrap(updates.wait { $0.contains { $0.serial == String(format: "FAKE%06d", count - 1) } },
                                 "the flood's last printer is listed")
        XCTAssertEqual(last.count, 64, "the list is capped")
        XCTAssertTrue(last.contains { $0.serial == "01P00A451601106" }, "the other host's printer is still listed")
        XCTAssertFalse(updates.all.contains { !$0.contains { $0.serial == "01P00A451601106" } },
                       "no update ever lost the real printer")
        queue.sync {}
        let delivered = updates.all.count - 1
        XCTAssertLessThanOrEqual(Double(delivered), flooded / 0.25 + 3,
                                 "at most four updates a second reach the executor (\(delivered) in \(flooded) s)")
    }
}

/// A UDP socket bound to one loopback address (127.0.0.x) that sends only to 127.0.0.1, so a test
/// can play a second host on the same machine.
private final class AliasedLoopbackSender {
    private let descriptor: Int32

    init(source: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        guard source.hasPrefix("127."), inet_pton(AF_INET, source, &address.sin_addr) == 1 else {
            close(descriptor)
            throw XCTSkip("\(source) is not a loopback address")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw XCTSkip("cannot bind \(source): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    func send(_ datagram: [UInt8], to port: UInt16) {
        var destination = sockaddr_in()
        destination.sin_family = sa_family_t(AF_INET)
        destination.sin_port = port.bigEndian
        destination.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let sent = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        XCTAssertEqual(sent, datagram.count, "sendto 127.0.0.1:\(port)")
    }
}
