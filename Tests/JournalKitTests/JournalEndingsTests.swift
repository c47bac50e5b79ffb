import Foundation
@testable import JournalKit
import TestSupport
import XCTest

/// What ended since a moment, by result (the window's "While you were away"): the prints that
/// ended then or later, never those still under way or that ended before.
final class JournalEndingsTests: XCTestCase {
    func testThePrintsEndedSinceAMomentAreCountedByResult() throws {
        let store = JournalStore(url: try makeTemporaryDirectory().appendingPathComponent("layerwatch/journal.sqlite3"))
        let left = Date(timeIntervalSince1970: 1_765_000_000)
        func print(_ name: String, started: TimeInterval, ended: TimeInterval?, _ result: PrintResult) -> JournalPrint {
            let begun = left.addingTimeInterval(started)
            return JournalPrint(key: JournalPrint.key(printerID: "p", printerJobID: nil, job: name, started: begun), printerID: "p",
                                printerName: "Voron", job: name, started: begun, ended: ended.map(left.addingTimeInterval), result: result)
        }
        store.record(contentsOf: [
            print("before.gcode", started: -7200, ended: -60, .finished),
            print("across.gcode", started: -3600, ended: 600, .finished),
            print("after.gcode", started: 700, ended: 1800, .finished),
            print("at.gcode", started: -100, ended: 0, .failed),
            print("stopped.gcode", started: 100, ended: 200, .cancelled),
            print("underway.gcode", started: 2000, ended: nil, .underway),
        ])
        XCTAssertEqual(store.endings(since: left), [.finished: 2, .failed: 1, .cancelled: 1])
        XCTAssertEqual(store.endings(since: left.addingTimeInterval(1000)), [.finished: 1])
        XCTAssertEqual(store.endings(since: left.addingTimeInterval(5000)), [:])
    }
}
