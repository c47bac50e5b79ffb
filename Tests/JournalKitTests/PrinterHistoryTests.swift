import Foundation
@testable import JournalKit
@testable import StatusKit
import TestSupport
import XCTest

/// The prints a Klipper printer's own history remembers (Moonraker's `/server/history/list`, from
/// Tests/Servers/moonraker_server.py) taken into the journal: those that ended while Layerwatch
/// was not running, once each, marked as from the printer's history; a print Layerwatch saw live
/// (keyed by the same job id) stays one print, ended by the history if it was left under way.
final class PrinterHistoryTests: XCTestCase {
    private let printer = PrintRecorder.Printer(id: "voron", name: "Voron 2.4", camera: nil)
    private let t0 = 1_765_000_000.0

    private func job(_ id: String, _ status: String, _ file: String, hoursAgo: Double, filament: Double = 1500) -> [String: Any] {
        let start = t0 - hoursAgo * 3600
        return ["job_id": id, "filename": file, "status": status, "start_time": start,
                "end_time": status == "in_progress" ? NSNull() : start + 1800, "filament_used": filament, "metadata": [:]]
    }

    /// Klipper's live status of `job` in `state`, as the Moonraker client reports it with the
    /// history's id of the job under way.
    private func live(_ state: String, _ file: String, jobID: String) -> PrinterStatus {
        var status = MoonrakerConnection.status(from: ["print_stats": ["filename": file, "state": state, "filament_used": 10]])
        status.jobID = jobID
        return status
    }

    func testJobsInTheMoonrakerHistoryAreRecordedOnceMarkedAsFromIt() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock { moonraker.stop() }
        moonraker.send(["cmd": "history", "jobs": [
            job("000005", "in_progress", "now.gcode", hoursAgo: 1),
            job("000004", "completed", "seen.gcode", hoursAgo: 2),
            job("000003", "error", "spaghetti.gcode", hoursAgo: 3),
            job("000002", "cancelled", "wrong.gcode", hoursAgo: 4),
            job("000001", "completed", "left.gcode", hoursAgo: 5, filament: 2222.5),
            job("../evil", "completed", "evil.gcode", hoursAgo: 6),
        ]])
        XCTAssertNotNil(moonraker.waitFor("done") { $0.string("cmd") == "history" })
        let store = JournalStore(url: try makeTemporaryDirectory().appendingPathComponent("journal.sqlite3"))
        let endpoint = StatusEndpoint.moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: nil)

        // Seen live before: 000004 from start to end, 000001 begun when Layerwatch quit.
        let before = PrintRecorder(store: store, printer: printer)
        before.observe(live("printing", "seen.gcode", jobID: "000004"), at: Date(timeIntervalSince1970: t0 - 7200))
        before.observe(live("complete", "seen.gcode", jobID: "000004"), at: Date(timeIntervalSince1970: t0 - 5400))
        let left = PrintRecorder(store: store, printer: printer)
        left.observe(live("printing", "left.gcode", jobID: "000001"), at: Date(timeIntervalSince1970: t0 - 18000))

        PrintRecorder(store: store, printer: printer).takeHistory(of: endpoint)
        store.flush()
        let prints = store.prints(JournalQuery())
        XCTAssertEqual(prints.map(\.job), ["seen.gcode", "spaghetti.gcode", "wrong.gcode", "left.gcode"],
                       "one each, newest first; none of the job under way or of a hostile id")
        XCTAssertEqual(prints.map(\.result), [.finished, .failed, .cancelled, .finished])
        XCTAssertEqual(prints.map(\.fromPrinterHistory), [false, true, true, false], "the prints seen live stay theirs")
        XCTAssertEqual(prints.map(\.printerJobID), ["000004", "000003", "000002", "000001"])
        XCTAssertEqual(prints[1].error, "The print stopped with an error")
        XCTAssertEqual(prints[1].started, Date(timeIntervalSince1970: t0 - 3 * 3600))
        XCTAssertEqual(prints[1].duration, 1800)
        XCTAssertEqual(prints[3].ended, Date(timeIntervalSince1970: t0 - 5 * 3600 + 1800), "the print left under way ended as remembered")
        XCTAssertEqual(prints[3].filamentUsed, 2222.5)
        XCTAssertTrue(prints.allSatisfy { $0.printerName == "Voron 2.4" })

        PrintRecorder(store: store, printer: printer).takeHistory(of: endpoint)
        store.flush()
        XCTAssertEqual(store.prints(JournalQuery()), prints, "a second connect adds nothing")
        let asked = moonraker.events(named: "request").compactMap { $0.string("path") }
        XCTAssertEqual(asked, Array(repeating: "/server/history/list?limit=50&order=desc", count: 2))
    }
}
