import Foundation
import StatusKit
import XCTest

/// The gate between a printer's reports and the desktop: a flapping printer or churning alerts give
/// a few notifications at most, while a real pause or failure is still told within seconds. Driven
/// by a clock of the test's own, as `PrintNotifier` drives it with the wall clock.
final class NotificationGateTests: XCTestCase {
    private let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Feeds `report(i)` every `interval` seconds for `seconds`, ticking as the notifier does, and
    /// returns every notification let through with its time.
    private func run(_ gate: inout NotificationGate, from offset: TimeInterval = 0, seconds: TimeInterval,
                     interval: TimeInterval, report: (Int) -> PrinterStatus) -> [(at: TimeInterval, tell: NotificationGate.Tell)] {
        var told: [(TimeInterval, NotificationGate.Tell)] = []
        for index in 0..<Int((seconds / interval).rounded()) {
            let time = offset + Double(index) * interval
            if let tell = gate.observe(report(index), at: start + time) { told.append((time, tell)) }
            if let deadline = gate.nextDeadline, deadline <= start + time, let tell = gate.tick(at: start + time) {
                told.append((time, tell))
            }
        }
        return told
    }

    /// Ticks once a second (as the notifier's timer) from `offset` for `seconds`.
    private func tick(_ gate: inout NotificationGate, from offset: TimeInterval, seconds: TimeInterval) -> [NotificationGate.Tell] {
        stride(from: offset, to: offset + seconds, by: 1).compactMap { gate.tick(at: start + $0) }
    }

    func testAFlappingPrinterTellsNothingUntilAStateHolds() {
        var gate = NotificationGate(mark: PrintMark(state: .printing, job: "Benchy", alerts: []))
        let flapping = run(&gate, seconds: 20, interval: 0.04) { index in
            PrinterStatus(state: index % 2 == 0 ? .paused : .printing, job: "Benchy")
        }
        XCTAssertTrue(flapping.isEmpty, "500 reports flapping PAUSE/RUNNING: \(flapping.map(\.tell.event))")
        // Then the printer really pauses: told once, within the settle time.
        let paused = run(&gate, from: 20, seconds: 10, interval: 1) { _ in PrinterStatus(state: .paused, job: "Benchy") }
        XCTAssertEqual(paused.map(\.tell.event), [.paused])
        XCTAssertEqual(paused.first?.at ?? 0, 20 + NotificationGate.settleTime, accuracy: 1)
        XCTAssertEqual(gate.mark?.state, .paused)
    }

    func testARealFailureIsToldOnceWithinSecondsEvenWithoutAnotherReport() {
        var gate = NotificationGate(mark: PrintMark(state: .printing, job: "Cube", alerts: []))
        XCTAssertNil(gate.observe(PrinterStatus(state: .failed, job: "Cube", errorText: "Nozzle clog"), at: start))
        XCTAssertEqual(gate.nextDeadline, start + NotificationGate.settleTime)
        XCTAssertNil(gate.tick(at: start + 1), "not before the state held")
        let told = tick(&gate, from: 2, seconds: 10)
        XCTAssertEqual(told.map(\.event), [.failed])
        XCTAssertEqual(told.first?.status.errorText, "Nozzle clog")
        XCTAssertNil(gate.observe(PrinterStatus(state: .failed, job: "Cube"), at: start + 20), "told once")
        XCTAssertNil(gate.nextDeadline)
    }

    func testARefusedUnsignedCommandIsNoAlertToTell() {
        var gate = NotificationGate(mark: PrintMark(state: .printing, job: "Benchy", alerts: []))
        let refused = run(&gate, seconds: 90, interval: 1) { _ in
            PrinterStatus(state: .printing, job: "Benchy", alerts: hms("0500_0500_0001_0007"))
        }
        XCTAssertTrue(refused.isEmpty, "the printer refusing Layerwatch's command is not a fault: \(refused.map(\.tell))")
        XCTAssertEqual(gate.mark?.alerts, [])
        let runout = run(&gate, from: 90, seconds: 5, interval: 1) { _ in
            PrinterStatus(state: .printing, job: "Benchy", alerts: hms("0500_0500_0001_0007", "0700_2000_0002_0001"))
        }
        XCTAssertEqual(runout.map(\.tell.alerts), [["0700_2000_0002_0001"]], "a real alert beside it is told")
    }

    func testChurningAlertsAreCountedInAFewNotifications() throws {
        var gate = NotificationGate(mark: PrintMark(state: .printing, job: "Benchy", alerts: []))
        // Fresh HMS codes in every report, 50 a second for 20 s: 1000 codes.
        let told = run(&gate, seconds: 20, interval: 0.02) { index in
            PrinterStatus(state: .printing, job: "Benchy", alerts: hms(String(format: "0300_%04X_0001_0007", index)))
        }
        XCTAssertEqual(told.count, 1, "only the first is told at once: \(told.map(\.at))")
        XCTAssertEqual(told.first?.tell.alertCount, 1)
        XCTAssertEqual(told.first?.at ?? 99, 0, accuracy: 0.001)
        // The rest waits for the alert spacing, then comes as one notification counting them all.
        let later = tick(&gate, from: 20, seconds: 60)
        XCTAssertEqual(later.count, 1)
        let last = try XCTUnwrap(later.last)
        XCTAssertEqual(last.alertCount, 1000)
        XCTAssertEqual(last.alerts.count, ListLimit.alerts, "the codes listed are bounded")
        XCTAssertNil(last.event)
        XCTAssertNil(gate.nextDeadline, "nothing waits any more")
    }

    func testNoPrinterSendsMoreThanTheBudgetWhateverItReports() {
        var gate = NotificationGate(mark: PrintMark(state: .idle, job: nil, alerts: []))
        // States that each hold just long enough, and new alerts: 120 s of a busy hostile printer.
        let told = run(&gate, seconds: 120, interval: 0.5) { index in
            let states: [PrinterStatus.State] = [.printing, .paused, .failed, .finished]
            return PrinterStatus(state: states[(index / 8) % 4], job: "job \(index / 32)", alerts: hms(String(format: "0700_%04X_0000_0000", index)))
        }
        let times = told.map(\.at)
        for time in times {
            let inWindow = times.filter { $0 >= time && $0 < time + NotificationGate.window }
            XCTAssertLessThanOrEqual(inWindow.count, NotificationGate.perWindow, "sends at \(times)")
        }
        XCTAssertGreaterThanOrEqual(told.count, NotificationGate.perWindow, "the budget is used, not starved")
    }

    func testChurningAlertsLeaveRoomForARealPause() {
        var gate = NotificationGate(mark: PrintMark(state: .printing, job: "Benchy", alerts: []))
        let churn = run(&gate, seconds: 10, interval: 0.02) { index in
            PrinterStatus(state: .printing, job: "Benchy", alerts: hms(String(format: "0300_%04X_0001_0007", index)))
        }
        XCTAssertEqual(churn.count, 1)
        let paused = run(&gate, from: 10, seconds: 5, interval: 0.5) { _ in PrinterStatus(state: .paused, job: "Benchy") }
        XCTAssertEqual(paused.map(\.tell.event), [.paused], "told within the settle time, not after the alerts' spacing")
        XCTAssertEqual(paused.first?.at ?? 0, 10 + NotificationGate.settleTime, accuracy: 0.5)
    }

    func testAWaitingPauseIsDroppedWhenThePrintResumed() {
        var gate = NotificationGate(mark: PrintMark(state: .printing, job: "Benchy", alerts: []))
        // Pause and resume, each held 4 s: the budget is spent by the fourth pause (32 s).
        var told: [NotificationGate.Tell] = []
        for round in 0..<NotificationGate.perWindow {
            let offset = Double(round) * 8
            told += run(&gate, from: offset, seconds: 4, interval: 1) { _ in PrinterStatus(state: .paused, job: "Benchy") }.map(\.tell)
            told += run(&gate, from: offset + 4, seconds: 4, interval: 1) { _ in PrinterStatus(state: .printing, job: "Benchy") }.map(\.tell)
        }
        XCTAssertEqual(told.map(\.event), Array(repeating: .paused, count: NotificationGate.perWindow))
        _ = run(&gate, from: 32, seconds: 5, interval: 1) { _ in PrinterStatus(state: .paused, job: "Benchy") }
        XCTAssertEqual(gate.mark?.state, .paused, "settled, but the budget is spent")
        XCTAssertNotNil(gate.nextDeadline, "the pause waits for its turn")
        _ = run(&gate, from: 37, seconds: 5, interval: 1) { _ in PrinterStatus(state: .printing, job: "Benchy") }
        XCTAssertEqual(gate.mark?.state, .printing)
        let later = tick(&gate, from: 42, seconds: 70)
        XCTAssertTrue(later.isEmpty, "a pause that is over is not told late: \(later.map(\.event))")
    }

    /// First sight tells nothing of the state, nor of a common alert, but a fatal alert already
    /// raised is told once (issue 35); an offline spell repeats nothing.
    func testFirstSightTellsOnlyAGraveAlertAndOfflineSpellsTellNothing() {
        var quiet = NotificationGate(mark: nil)
        XCTAssertNil(quiet.observe(PrinterStatus(state: .failed, job: "Benchy", alerts: hms("0300_0100_0003_0007")), at: start))
        XCTAssertTrue(tick(&quiet, from: 1, seconds: 10).isEmpty, "a common alert at first sight is old news")
        var gate = NotificationGate(mark: nil)
        let told = gate.observe(PrinterStatus(state: .failed, job: "Benchy", alerts: hms("0300_0100_0001_0007")), at: start)
        XCTAssertNil(told?.event, "not the state it was already in")
        XCTAssertEqual(told?.alerts, ["0300_0100_0001_0007"], "the fatal alert it already had")
        XCTAssertEqual(gate.mark, PrintMark(state: .failed, job: "Benchy", alerts: ["0300_0100_0001_0007"]))
        XCTAssertNil(gate.observe(PrinterStatus(state: .offline), at: start + 1))
        XCTAssertNil(gate.observe(PrinterStatus(state: .failed, alerts: hms("0300_0100_0001_0007")), at: start + 60))
        XCTAssertTrue(tick(&gate, from: 61, seconds: 10).isEmpty)
    }
}
