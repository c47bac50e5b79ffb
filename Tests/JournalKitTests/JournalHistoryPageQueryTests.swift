import Foundation
import JournalKit
import TestSupport
import XCTest

/// What the History page asks of the journal besides its pages: the prints ended since a time,
/// the printers to filter by, and a word after each write.
final class JournalHistoryPageQueryTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_760_000_000)

    private func store() throws -> JournalStore {
        JournalStore(url: try makeTemporaryDirectory().appendingPathComponent("layerwatch/journal.sqlite3"))
    }

    private func print(_ key: String, printer: String, name: String, startedAfter minutes: Double, ranFor run: Double? = 30,
                       result: PrintResult = .finished) -> JournalPrint {
        let started = start.addingTimeInterval(minutes * 60)
        return JournalPrint(key: key, printerID: printer, printerName: name, job: "\(key).gcode", started: started,
                            ended: run.map { started.addingTimeInterval($0 * 60) }, result: run == nil ? .underway : result)
    }

    func testTheyEndedSinceATimeNotStarted() throws {
        let store = try store()
        let early = print("early", printer: "a", name: "Voron", startedAfter: 0, ranFor: 30)  // ended at 30 min
        let long = print("long", printer: "a", name: "Voron", startedAfter: 10, ranFor: 300)  // started before, ended after
        let exact = print("exact", printer: "b", name: "Prusa", startedAfter: 40, ranFor: 20)  // ended at 60 min exactly
        let underway = print("underway", printer: "b", name: "Prusa", startedAfter: 70, ranFor: nil)
        store.record(contentsOf: [early, long, exact, underway])
        let since = start.addingTimeInterval(60 * 60)
        XCTAssertEqual(store.prints(JournalQuery(endedSince: since)).map(\.key), ["exact", "long"], "newest first; never one under way")
        XCTAssertEqual(store.prints(JournalQuery(endedSince: since, results: [.finished], limit: 1)).map(\.key), ["exact"])
        XCTAssertEqual(store.prints(JournalQuery()).count, 4)
    }

    func testThePrintersAreTheJournalsByTheirNewestName() throws {
        let store = try store()
        store.record(contentsOf: [print("1", printer: "a", name: "Voron", startedAfter: 0),
                                  print("2", printer: "b", name: "Prusa MK4", startedAfter: 10),
                                  print("3", printer: "a", name: "Voron 2.4", startedAfter: 20),
                                  print("4", printer: "c", name: "Bambu P1S", startedAfter: 5)])
        XCTAssertEqual(store.printers(), [JournalPrinter(id: "c", name: "Bambu P1S"), JournalPrinter(id: "b", name: "Prusa MK4"),
                                          JournalPrinter(id: "a", name: "Voron 2.4")])
    }

    func testEachWriteIsToldAfterItIsDone() throws {
        let store = try store()
        let told = expectation(description: "told")
        store.onWrite { told.fulfill() }
        store.record(print("1", printer: "a", name: "Voron", startedAfter: 0))
        wait(for: [told], timeout: 5)
        XCTAssertEqual(store.prints(JournalQuery()).map(\.key), ["1"])
    }
}
