import Foundation
import PrinterKit
import TestSupport
import XCTest

/// The discovery listener on loopback: datagrams sent by the test to 127.0.0.1 only (never to a LAN,
/// broadcast or multicast address), no multicast join.
final class DiscoveryListenerTests: XCTestCase {
    private let queue = DispatchQueue(label: "discovery-tests")
    private var recorder: DiscoveryUpdateLog!
    private var sender: LoopbackSender!

    override func setUp() {
        recorder = DiscoveryUpdateLog()
        sender = LoopbackSender()
    }

    private func startListener(port: UInt16 = 0, expiry: TimeInterval = 300) throws -> (PrinterDiscovery, UInt16) {
        let configuration = PrinterDiscovery.Configuration(bindAddress: "127.0.0.1", endpoints: [.init(port: port)], expiry: expiry,
                                                           asks: [])  // hears only: no answer from another test's fake
        let discovery = PrinterDiscovery(configuration: configuration, executor: queue) { [recorder] in recorder!.append($0) }
        discovery.start()
        addTeardownBlock { discovery.stop() }
        guard case .listening(let ports, []) = discovery.state, ports.count == 1 else {
            throw Failure(description: "not listening on loopback: \(discovery.state)")
        }
        return (discovery, ports[0])
    }

    func testDeliversAnnouncedPrintersAndIgnoresGarbageBetweenThem() throws {
        let (discovery, port) = try startListener()
        let garbage: [[UInt8]] = [
            Array("hello".utf8), [0xFF, 0xFE, 0x00, 0x41],
            Array("M-SEARCH * HTTP/1.1\r\nST: urn:bambulab-com:device:3dprinter:1\r\n\r\n".utf8),
            Array("NOTIFY * HTTP/1.1\r\nNT: upnp:rootdevice\r\nUSN: uuid:1234\r\n\r\n".utf8),
            SSDPAnnouncement.bytes(serial: "HUGE0000000001", name: "Huge") + [UInt8](repeating: 0x61, count: 9000),
        ]
        sender.send(garbage[0], to: port)
        sender.send(garbage[1], to: port)
        sender.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Shelf P1S", location: "192.0.2.21"), to: port)
        for datagram in garbage.dropFirst(2) { sender.send(datagram, to: port) }
        sender.send(SSDPAnnouncement.bytes(serial: "0300AA2A1500123", name: "Desk A1 mini", model: "N1"), to: port)

        let both = try XCTUnwrap(recorder.wait { $0.count == 2 })
        XCTAssertEqual(both.map(\.serial), ["0300AA2A1500123", "01P00A451601106"], "sorted by name")
        XCTAssertEqual(both[0].address, "127.0.0.1", "the sender's address")
        XCTAssertEqual(both[0].modelName, "A1 mini")
        XCTAssertEqual(both[1], DiscoveredPrinter(serial: "01P00A451601106", address: "127.0.0.1", modelCode: "C12",
                                                  name: "Shelf P1S", connection: .lan, bindState: "free",
                                                  firmwareVersion: "01.07.00.00", signal: "-51"))
        XCTAssertEqual(discovery.printers, both)
        XCTAssertEqual(Set(recorder.all.joined().map(\.serial)), ["0300AA2A1500123", "01P00A451601106"])

        for datagram in garbage { sender.send(datagram, to: port) }
        sender.send(SSDPAnnouncement.bytes(serial: "00M09A350100321", name: "Attic X1C", model: "BL-P001"), to: port)
        XCTAssertEqual(recorder.wait { $0.count == 3 }?.first?.model, .x1c, "still listening after more garbage")
    }

    func testFollowsARenamedPrinterButNotItsLocationHeader() throws {
        let (_, port) = try startListener()
        sender.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Old name", location: "192.0.2.21"), to: port)
        XCTAssertNotNil(recorder.wait { $0.first?.name == "Old name" })
        let before = recorder.all.count
        sender.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Old name", location: "192.0.2.21"), to: port)
        sender.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "New name", location: "192.0.2.22"), to: port)
        let renamed = try XCTUnwrap(recorder.wait { $0.first?.name == "New name" })
        XCTAssertEqual(renamed.map(\.address), ["127.0.0.1"], "the sender, not the Location it names")
        XCTAssertEqual(recorder.all.count, before + 1, "a repeated announcement is not an update")
    }

    func testForgetsAPrinterThatFallsSilent() throws {
        let (discovery, port) = try startListener(expiry: 0.3)
        let heard = Date()
        sender.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Shelf P1S"), to: port)
        XCTAssertNotNil(recorder.wait { $0.count == 1 })
        XCTAssertNotNil(recorder.wait { $0.isEmpty })
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(heard), 0.3)
        XCTAssertEqual(discovery.printers, [])
        if case .listening = discovery.state {} else { XCTFail("still listening: \(discovery.state)") }
    }

    func testStopIsPromptClosesTheSocketAndLeavesNoThread() throws {
        XCTAssertEqual(liveListenerThreads(), 0)
        let (discovery, port) = try startListener()
        XCTAssertTrue(waitUntil { self.liveListenerThreads() == 1 }, "the thread names itself once running")
        XCTAssertFalse(LoopbackSender.canBindExclusively(port), "the listener holds the port")
        sender.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Shelf P1S"), to: port)
        XCTAssertNotNil(recorder.wait { $0.count == 1 })

        let started = Date()
        discovery.stop()
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
        XCTAssertEqual(discovery.state, .stopped)
        XCTAssertEqual(discovery.printers, [])
        XCTAssertTrue(LoopbackSender.canBindExclusively(port), "the socket is closed")
        XCTAssertTrue(waitUntil { self.liveListenerThreads() == 0 }, "the thread has ended")
        let updates = recorder.all.count
        queue.sync {}
        XCTAssertEqual(recorder.all.count, updates, "nothing delivered after stop")
    }

    func testAPortHeldWithoutSharingIsReportedNotFatal() throws {
        let holder = try XCTUnwrap(LoopbackSender.exclusiveSocket())
        defer { close(holder.descriptor) }
        // Nothing to ask either: with an ask sent, the listener would be asking, not failed.
        let configuration = PrinterDiscovery.Configuration(bindAddress: "127.0.0.1", endpoints: [.init(port: holder.port)], asks: [])
        let blocked = PrinterDiscovery(configuration: configuration, executor: queue) { _ in }
        blocked.start()
        guard case .failed(let failures) = blocked.state else { return XCTFail("\(blocked.state)") }
        XCTAssertEqual(failures.map(\.port), [holder.port])
        XCTAssertEqual(failures.first?.code, EADDRINUSE)

        let partial = PrinterDiscovery(configuration: .init(bindAddress: "127.0.0.1", endpoints: [.init(port: holder.port), .init(port: 0)]),
                                       executor: queue) { _ in }
        partial.start()
        defer { partial.stop() }
        guard case .listening(let ports, let unavailable) = partial.state else { return XCTFail("\(partial.state)") }
        XCTAssertEqual(ports.count, 1)
        XCTAssertNotEqual(ports.first, 0)
        XCTAssertEqual(unavailable.map(\.port), [holder.port])
        XCTAssertTrue("\(unavailable[0])".contains("UDP port \(holder.port)"))

        let badAddress = PrinterDiscovery(configuration: .init(bindAddress: "printer.local", endpoints: [.init(port: 0)], asks: []), executor: queue) { _ in }
        badAddress.start()
        guard case .failed(let invalid) = badAddress.state else { return XCTFail("\(badAddress.state)") }
        XCTAssertEqual(invalid.map(\.code), [EINVAL])
    }

    func testSharesItsPortWithAnotherListener() throws {
        let (_, port) = try startListener()
        let second = PrinterDiscovery(configuration: .init(bindAddress: "127.0.0.1", endpoints: [.init(port: port)]), executor: queue) { _ in }
        second.start()
        defer { second.stop() }
        XCTAssertEqual(second.state, .listening(ports: [port], unavailable: []))
    }

    private func liveListenerThreads() -> Int {
        ThreadCensus.count(prefix: "lw-discovery")
    }
}

private struct Failure: Error, CustomStringConvertible {
    let description: String
}
