import Foundation
@testable import PrinterKit
import TestSupport
import XCTest

/// The listener asks: its asks go to the address the caller chose (127.0.0.1 here, never a LAN,
/// broadcast or multicast address), again every `askInterval`, and the answers that come back to
/// the asking socket are read by the family's reader, bounded however many arrive.
final class DiscoveryAskTests: XCTestCase {
    private let queue = DispatchQueue(label: "discovery-ask-tests")
    private var updates: DiscoveryUpdateLog!

    override func setUp() {
        updates = DiscoveryUpdateLog()
    }

    /// A listener that only asks: `payload` to the responder's port on 127.0.0.1, every `interval`.
    private func startAsking(_ payload: [UInt8], port: UInt16, interval: TimeInterval = 5) -> PrinterDiscovery {
        let configuration = PrinterDiscovery.Configuration(bindAddress: "127.0.0.1", endpoints: [],
                                                           asks: [DiscoveryAsk(payload: payload, port: port, address: "192.0.2.255")],
                                                           askAddress: "127.0.0.1", askInterval: interval)
        let discovery = PrinterDiscovery(configuration: configuration, executor: queue) { [updates] in updates!.append($0) }
        discovery.start()
        addTeardownBlock { discovery.stop() }
        XCTAssertEqual(discovery.state, .listening(ports: [], unavailable: []), "asking, no port to listen on")
        return discovery
    }

    /// `layerwatch discover` asks every family's printers that answer a question (PROTOCOLS.md §11,
    /// §12, §13).
    func testEveryDiscoverysAsksArePrusasElegoosAndFlashforges() {
        XCTAssertEqual(DiscoveryAsk.everyFamily.sorted { $0.port < $1.port }, [
            DiscoveryAsk(payload: Array("M99999".utf8), port: 3000, address: "255.255.255.255"),
            DiscoveryAsk(payload: PrusaLinkDiscovery.question, port: 5353, address: "224.0.0.251"),
            DiscoveryAsk(payload: [], port: 19000, address: "225.0.0.9"),
        ])
    }

    func testAnElegooAnswerToTheAskIsListedAtTheAnswersAddress() throws {
        let responder = try XCTUnwrap(LoopbackResponder { ask in
            String(decoding: ask, as: UTF8.self) == "M99999" ? [DiscoveryAnswers.elegoo(name: "Bay 3")] : nil
        })
        defer { responder.stop() }
        _ = startAsking(Array("M99999".utf8), port: responder.port)
        let found = try XCTUnwrap(updates.wait { !$0.isEmpty })
        XCTAssertEqual(found.map(\.name), ["Bay 3"])
        XCTAssertEqual(found.first?.address, "127.0.0.1")
        XCTAssertEqual(found.first?.family, "elegoo")
        XCTAssertEqual(responder.asks, [Array("M99999".utf8)], "asked once so far")
    }

    /// A printer that missed the first ask (or was switched on later) answers the next round.
    func testAsksAgainEveryInterval() throws {
        let responder = try XCTUnwrap(LoopbackResponder { [count = Counter()] _ in
            count.next() >= 2 ? [DiscoveryAnswers.flashforge(name: "Late 5M")] : nil
        })
        defer { responder.stop() }
        _ = startAsking([], port: responder.port, interval: 0.3)
        XCTAssertEqual(try XCTUnwrap(updates.wait { !$0.isEmpty }).map(\.name), ["Late 5M"])
        XCTAssertGreaterThanOrEqual(responder.asks.count, 2)
    }

    /// One host answering the first asks with hundreds of printers, garbage and oversized
    /// datagrams among them: the list keeps at most the table's 64, and the real answer that
    /// follows is still read.
    func testAFloodOfAnswersIsBounded() throws {
        let responder = try XCTUnwrap(LoopbackResponder { [count = Counter()] _ in
            guard count.next() <= 2 else { return [DiscoveryAnswers.elegoo(name: "Real")] }
            return (0..<300).map { DiscoveryAnswers.flashforge(name: "Fake \($0)", serial: "SNFAKE\($0)") }
                + [[UInt8](repeating: 0x7B, count: 60000), Array("garbage".utf8)]
        })
        defer { responder.stop() }
        let discovery = startAsking([], port: responder.port, interval: 0.3)
        XCTAssertNotNil(updates.wait(timeout: 10) { $0.contains { $0.name == "Real" } })
        XCTAssertLessThanOrEqual(discovery.printers.count, 64)
        XCTAssertGreaterThan(discovery.printers.count, 10, "the fakes were read too")
        XCTAssertLessThanOrEqual(updates.all.count, 20, "published at most four times a second")
    }
}

/// Counts calls from the responder's thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int { lock.withLock { value += 1; return value } }
}
