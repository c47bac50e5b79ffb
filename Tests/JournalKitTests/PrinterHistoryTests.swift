import Foundation
@testable import JournalKit
@testable import StatusKit
import TestSupport
import XCTest

/// The prints a Klipper printer's own history remembers (Moonraker's `/server/history/list`, from
/// Tests/Servers/moonraker_server.py) taken into the journal: those that ended while Layerwatch
/// was not running, once each, marked as from the printer's history; a print Layerwatch saw live
/// (keyed by the same job id) stays one print, ended by the history if it was left under way. The
/// same of an Elegoo's task history (SDCP Cmd 320 and 321, Tests/Servers/elegoo_sdcp_server.py).
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

    /// A task of an Elegoo's history as Cmd 321 details it (the SDCP V3.0.0 specification).
    private func task(_ id: Any, _ status: Int, _ file: String, hoursAgo: Double, lasting: Double = 1800) -> [String: Any] {
        let begin = t0 - hoursAgo * 3600
        return ["TaskId": id, "TaskName": file, "BeginTime": begin, "EndTime": begin + lasting, "TaskStatus": status,
                "Thumbnail": "", "SliceInformation": [:], "AlreadyPrintLayer": 12, "MD5": "", "TimeLapseVideoStatus": 0,
                "ErrorStatusReason": status == 2 ? 19 : 0]
    }

    func testTasksInTheElegooHistoryAreRecordedOnceKeyedByTheLiveTaskId() throws {
        let elegoo = try TestServer(script: "elegoo_sdcp_server.py", arguments: ["--interval", "0.3"])
        addTeardownBlock { elegoo.stop() }
        let store = JournalStore(url: try makeTemporaryDirectory().appendingPathComponent("journal.sqlite3"))
        let centauri = PrintRecorder.Printer(id: "centauri", name: "Centauri Carbon", camera: nil)
        let endpoint = StatusEndpoint.elegoo(host: "127.0.0.1", port: elegoo.port)

        // Seen live through the printer's status connection, from start to end.
        let live = PrintRecorder(store: store, printer: centauri)
        let monitor = StatusMonitor(endpoint: endpoint, executor: DispatchQueue(label: "elegoo-history-test")) { update in
            if let status = update.status { live.observe(status) }
        }
        monitor.start()
        let liveID = "7b3f0c2e-2d1a-4c9e-9f51-0a6be1c0ffee"
        XCTAssertEqual(elegoo.perform(["cmd": "set", "fields": ["PrintInfo": [
            "Status": 13, "Filename": "/local/seen.gcode", "TaskId": liveID, "CurrentLayer": 3, "TotalLayer": 90, "CurrentTicks": 60,
        ]]])?.name, "done")
        XCTAssertTrue(waitUntil(timeout: 10) { store.prints(JournalQuery()).first?.printerJobID == liveID }, "the live print keyed by its TaskId")
        // The firmware blanks Filename and TaskId from the stop on: the print is still the same.
        XCTAssertEqual(elegoo.perform(["cmd": "set", "fields": ["PrintInfo": ["Status": 9, "Filename": "", "TaskId": ""]]])?.name, "done")
        XCTAssertTrue(waitUntil(timeout: 10) { store.prints(JournalQuery()).first?.result == .finished })
        monitor.stop(waitingUpTo: 2)

        XCTAssertEqual(elegoo.perform(["cmd": "history", "tasks": [
            task(liveID, 1, "/local/seen.gcode", hoursAgo: 0.1),
            task("a1b2c3", 2, "/local/spaghetti.gcode", hoursAgo: 3),
            task("d4e5f6", 3, "/local/wrong.gcode", hoursAgo: 4),
            task("0badf00d", 0, "/local/other.gcode", hoursAgo: 5),
            task("../evil", 1, "/local/evil.gcode", hoursAgo: 6),
            task(["nested"], 1, "/local/nested.gcode", hoursAgo: 7),
            task("backwards", 1, "/local/backwards.gcode", hoursAgo: 8, lasting: -60),
        ] + (0..<12).map { task("old\($0)", 1, "/local/old\($0).gcode", hoursAgo: 10 + Double($0)) }])?.name, "done")

        PrintRecorder(store: store, printer: centauri).takeHistory(of: endpoint)
        store.flush()
        let prints = store.prints(JournalQuery())
        XCTAssertEqual(Array(prints.map(\.job).prefix(3)), ["seen.gcode", "spaghetti.gcode", "wrong.gcode"],
                       "the live print once, newest first; no task of status 0, of a hostile id or of times out of order")
        XCTAssertEqual(prints.count, 3 + 12, "every sound task, asked ten at a time")
        XCTAssertEqual(Array(prints.map(\.result).prefix(3)), [.finished, .failed, .cancelled])
        XCTAssertEqual(Array(prints.map(\.fromPrinterHistory).prefix(3)), [false, true, true], "the print seen live stays its own")
        XCTAssertEqual(Array(prints.map(\.printerJobID).prefix(3)), [liveID, "a1b2c3", "d4e5f6"])
        XCTAssertEqual(prints[1].error, "The print stopped with an error")
        XCTAssertEqual(prints[1].started, Date(timeIntervalSince1970: t0 - 3 * 3600))
        XCTAssertEqual(prints[1].duration, 1800)
        XCTAssertTrue(prints.allSatisfy { $0.printerName == "Centauri Carbon" })
        let asked = elegoo.events(named: "request").filter { [320, 321].contains($0.int("cmd")) }
        XCTAssertEqual(asked.map { $0.int("cmd") }, [320, 321, 321], "the ids, then their details in batches")
        let ids = asked.dropFirst().map { ($0.fields["data"] as? [String: Any])?["Id"] as? [String] ?? [] }
        XCTAssertEqual(ids.map(\.count), [10, 7], "only the sound ids are asked")
        XCTAssertFalse(ids.joined().contains("../evil"))

        PrintRecorder(store: store, printer: centauri).takeHistory(of: endpoint)
        store.flush()
        XCTAssertEqual(store.prints(JournalQuery()), prints, "a second connect adds nothing")
    }
}
