import Foundation
import StatusKit
import XCTest

/// Which reports are notification events: entering finished, failed or paused, and HMS codes not
/// shown before — never a state seen first, an offline spell, or a report repeating the mark.
final class PrintEventTests: XCTestCase {
    /// Feeds `statuses` in order from `mark`, as the notifier does, and returns every event.
    private func events(_ statuses: [PrinterStatus], from mark: PrintMark? = nil) -> [[PrintEvent]] {
        var mark = mark
        return statuses.map { status in
            let (events, next) = PrintEvent.changes(from: mark, to: status)
            mark = next
            return events
        }
    }

    func testOnlyTransitionsSeenLiveAreEvents() {
        XCTAssertEqual(events([PrinterStatus(state: .finished, job: "Benchy", alerts: hms("0300_0100_0001_0007"))]), [[]],
                       "a printer seen first: what it shows was there before")
        XCTAssertEqual(events([.init(state: .printing, job: "Benchy"), .init(state: .paused, job: "Benchy"),
                               .init(state: .printing, job: "Benchy"), .init(state: .paused, job: "Benchy"),
                               .init(state: .printing, job: "Benchy"), .init(state: .failed, job: "Benchy"),
                               .init(state: .idle), .init(state: .preparing, job: "Cube"), .init(state: .printing, job: "Cube"),
                               .init(state: .finished, job: "Cube")]),
                       [[], [.paused], [], [.paused], [], [.failed], [], [], [], [.finished]])
    }

    func testOfflineReconnectsAndRepeatsAreNoEvents() {
        let mark = PrintMark(state: .finished, job: "Benchy", alerts: [])
        XCTAssertEqual(events([.init(state: .offline, job: "Benchy"), .init(state: .finished, job: "Benchy"),
                               .init(state: .finished)], from: mark),
                       [[], [], []], "offline changes nothing; a report without the job is the same print")
        XCTAssertEqual(events([.init(state: .finished, job: "Cube")], from: mark), [[.finished]],
                       "another job finished while nobody looked")
        XCTAssertEqual(PrintEvent.changes(from: mark, to: .init(state: .offline)).mark, mark)
    }

    func testNewAlertsAreEventsOnce() {
        let mark = PrintMark(state: .printing, job: "Benchy", alerts: ["0300_0100_0001_0007"])
        XCTAssertEqual(events([.init(state: .printing, job: "Benchy", alerts: hms("0300_0100_0001_0007", "0700_2000_0002_0001")),
                               .init(state: .paused, job: "Benchy", alerts: hms("0700_2000_0002_0001", "0C00_0300_0003_000B")),
                               .init(state: .paused, job: "Benchy", alerts: hms("0C00_0300_0003_000B")),
                               .init(state: .paused, job: "Benchy", alerts: hms("0C00_0300_0003_000B", "0300_0100_0001_0007"))], from: mark),
                       [[.alerts(["0700_2000_0002_0001"])], [.paused, .alerts(["0C00_0300_0003_000B"])], [],
                        [.alerts(["0300_0100_0001_0007"])]])
    }

    func testTheMarkStaysSmallWhateverThePrinterSends() throws {
        let status = PrinterStatus(state: .printing, job: String(repeating: "x", count: 100_000),
                                   alerts: hms((0..<500).map { String(format: "%04X_0000_0000_0000", $0 % 100) }))
        let mark = try XCTUnwrap(PrintEvent.changes(from: nil, to: status).mark)
        XCTAssertEqual(mark.job?.count, PrintMark.jobLength)
        XCTAssertEqual(mark.alerts.count, PrintMark.alertLimit)
        XCTAssertEqual(Set(mark.alerts).count, mark.alerts.count)
    }
}
