import Foundation
@testable import LayerwatchApp
import StatusKit
import XCTest

/// The farm's "needs attention" order and its finishing mark, on their own.
final class FarmOrderTests: XCTestCase {
    private func entry(_ name: Int, _ state: PrinterStatus.State?, left: TimeInterval? = nil) -> FarmOrder.Entry {
        FarmOrder.Entry(id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", name))!, state: state, timeLeft: left)
    }

    func testFailedAndPausedFirstThenPrintingByTimeLeftThenFinishedIdleAndUnknown() {
        let entries = [entry(1, nil), entry(2, .idle), entry(3, .printing, left: 3600), entry(4, .paused, left: 600),
                       entry(5, .printing, left: 300), entry(6, .finished), entry(7, .failed), entry(8, .printing),
                       entry(9, .offline), entry(10, .preparing, left: 1200)]
        let order = FarmOrder.attentionFirst(entries).map { Int($0.uuidString.suffix(12))! }
        XCTAssertEqual(order, [4, 7, 9, 5, 10, 3, 8, 6, 2, 1],
                       "paused and failed in the user's order, offline, then 5 min, 20 min, 1 h, unknown; finished, idle, no status")
    }

    func testAPrinterInTroubleComesRightAfterFailedAndPausedOnes() {
        var troubled = entry(3, .printing, left: 60), blind = entry(4, nil)
        troubled.inTrouble = true  // its camera reconnecting
        blind.inTrouble = true     // a rejected code: no status at all
        let entries = [entry(1, .printing, left: 30), entry(2, .idle), troubled, blind, entry(5, .paused)]
        XCTAssertEqual(FarmOrder.attentionFirst(entries).map { Int($0.uuidString.suffix(12))! }, [5, 3, 4, 1, 2])
        XCTAssertTrue(FarmOrder.isInTrouble(troubled) && FarmOrder.isInTrouble(blind))
        var failing = entry(6, .failed)
        failing.inTrouble = true
        XCTAssertFalse(FarmOrder.isInTrouble(failing), "a failed print says more: framed as failed")
        XCTAssertFalse(FarmOrder.isInTrouble(entry(7, .idle)))
    }

    /// A cancelled print is no fault: with the finished prints (a plate to clear), never framed.
    func testACancelledPrintGoesWithTheFinishedOnesAndNeedsNoAttention() {
        let entries = [entry(1, .idle), entry(2, .cancelled), entry(3, .failed), entry(4, .finished), entry(5, .printing)]
        XCTAssertEqual(FarmOrder.attentionFirst(entries).map { Int($0.uuidString.suffix(12))! }, [3, 5, 2, 4, 1])
        XCTAssertFalse(FarmOrder.needsAttention(.cancelled))
        XCTAssertFalse(FarmOrder.isInTrouble(entry(2, .cancelled)))
    }

    func testTheUsersOrderStandsWithinAGroup() {
        let entries = (1...5).map { entry($0, .idle) }
        XCTAssertEqual(FarmOrder.attentionFirst(entries), entries.map(\.id))
    }

    func testOnlyAPrintEndingWithinTenMinutesIsFinishing() {
        XCTAssertTrue(FarmOrder.isFinishing(entry(1, .printing, left: 600)))
        XCTAssertTrue(FarmOrder.isFinishing(entry(1, .printing, left: 0)))
        XCTAssertFalse(FarmOrder.isFinishing(entry(1, .printing, left: 601)))
        XCTAssertFalse(FarmOrder.isFinishing(entry(1, .printing)))
        var alerted = entry(1, .printing, left: 300)
        alerted.alerted = true
        XCTAssertFalse(FarmOrder.isFinishing(alerted), "a grave alert: the print may not finish")
        XCTAssertFalse(FarmOrder.isFinishing(entry(1, .paused, left: 60)), "a paused print is not about to finish")
        XCTAssertTrue(FarmOrder.needsAttention(.paused) && FarmOrder.needsAttention(.failed))
        XCTAssertFalse(FarmOrder.needsAttention(.printing) || FarmOrder.needsAttention(nil))
    }
}
