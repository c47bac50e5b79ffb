import Foundation
@testable import JournalKit
@testable import StatusKit
import TestSupport
import XCTest

/// The recorder, fed the reports the status clients make of what the fakes send (Klipper's
/// `print_stats` states as Tests/Servers/moonraker_server.py serves them, Bambu's push_status as
/// bambu_mqtt_printer.py does): what the journal then holds.
final class PrintRecorderTests: XCTestCase {
    private let printer = PrintRecorder.Printer(id: "voron", name: "Voron 2.4", camera: "http://voron/webcam/?action=stream")
    private let t0 = Date(timeIntervalSince1970: 1_765_000_000)

    private func journal() throws -> URL {
        try makeTemporaryDirectory().appendingPathComponent("journal.sqlite3")
    }

    /// Klipper's status as Moonraker reports it, read by the Moonraker client.
    private func klipper(_ state: String, job: String = "benchy.gcode", message: String = "", layer: Int? = nil,
                         filament: Double = 0) -> PrinterStatus {
        MoonrakerConnection.status(from: [
            "print_stats": ["filename": state == "standby" ? "" : job, "state": state, "message": message, "filament_used": filament,
                            "info": ["current_layer": layer.map { $0 as Any } ?? NSNull(), "total_layer": 48]],
            "display_status": ["progress": Double(layer ?? 0) / 48],
        ])
    }

    /// Feeds `reports` one a minute from `start`; when each was fed.
    @discardableResult
    private func feed(_ recorder: PrintRecorder, _ reports: [PrinterStatus], from start: Date) -> [Date] {
        reports.enumerated().map { index, status in
            let at = start.addingTimeInterval(Double(index) * 60)
            recorder.observe(status, at: at)
            return at
        }
    }

    func testAFinishedPrintIsRecordedOnceWithItsPauseAndFigures() throws {
        let store = JournalStore(url: try journal())
        let recorder = PrintRecorder(store: store, printer: printer)
        let times = feed(recorder, [klipper("standby"), klipper("printing", layer: 1, filament: 12.5), klipper("printing", layer: 2, filament: 40),
                                    klipper("paused", message: "Filament runout", layer: 2, filament: 41),
                                    klipper("printing", layer: 3, filament: 60), klipper("printing", layer: 48, filament: 1523.7),
                                    klipper("complete", layer: 48, filament: 1530.25), klipper("complete", layer: 48, filament: 1530.25),
                                    klipper("standby")], from: t0)
        let prints = store.prints(JournalQuery())
        XCTAssertEqual(prints.count, 1, "one print, whatever repeats")
        let print = try XCTUnwrap(prints.first)
        XCTAssertEqual(print.job, "benchy.gcode")
        XCTAssertEqual(print.printerName, "Voron 2.4")
        XCTAssertEqual(print.camera, printer.camera)
        XCTAssertEqual(print.result, .finished)
        XCTAssertEqual(print.started, times[1])
        XCTAssertEqual(print.ended, times[6])
        XCTAssertEqual(print.duration, 300)
        XCTAssertEqual(print.layer, 48)
        XCTAssertEqual(print.totalLayers, 48)
        XCTAssertEqual(print.filamentUsed, 1530.25)
        XCTAssertNil(print.error)
        XCTAssertEqual(store.events(ofPrint: print.key), [JournalEvent(kind: .pause, words: "Filament runout", at: times[3]),
                                                         JournalEvent(kind: .resume, at: times[4])])

        let again = feed(recorder, [klipper("printing", layer: 1), klipper("complete", layer: 48)], from: t0.addingTimeInterval(3600))
        XCTAssertEqual(store.prints(JournalQuery()).map(\.started), [again[0], times[1]], "the same job printed again is another print")
    }

    func testAFailedPrintKeepsThePrintersWords() throws {
        let store = JournalStore(url: try journal())
        let times = feed(PrintRecorder(store: store, printer: printer),
                         [klipper("printing", layer: 5), klipper("error", message: "Heater extruder not heating at expected rate", layer: 5)],
                         from: t0)
        let print = try XCTUnwrap(store.prints(JournalQuery()).first)
        XCTAssertEqual(print.result, .failed)
        XCTAssertEqual(print.error, "Heater extruder not heating at expected rate")
        XCTAssertEqual(print.ended, times[1])
    }

    func testACancelledPrintIsNoFailure() throws {
        let store = JournalStore(url: try journal())
        let times = feed(PrintRecorder(store: store, printer: printer),
                         [klipper("printing", layer: 5), klipper("paused", layer: 5), klipper("cancelled", layer: 5)], from: t0)
        let print = try XCTUnwrap(store.prints(JournalQuery()).first)
        XCTAssertEqual(print.result, .cancelled)
        XCTAssertNil(print.error)
        XCTAssertEqual(print.ended, times[2])
        XCTAssertEqual(store.events(ofPrint: print.key).map(\.kind), [.pause])
    }

    func testEachPrintsFirstLayerAndEndAreToldOnceWithItsKey() throws {
        let store = JournalStore(url: try journal())
        let recorder = PrintRecorder(store: store, printer: printer)
        let told = LockedList<String>()
        recorder.onMoment = { key, moment in told.append("\(key) \(moment)") }
        feed(recorder, [klipper("printing", job: "a.gcode", layer: 1), klipper("printing", job: "a.gcode", layer: 1),
                        klipper("printing", job: "a.gcode", layer: 2), klipper("printing", job: "a.gcode", layer: 3),
                        klipper("complete", job: "a.gcode", layer: 48), klipper("complete", job: "a.gcode", layer: 48), klipper("standby"),
                        klipper("printing", job: "b.gcode", layer: 5), klipper("printing", job: "b.gcode", layer: 6),
                        klipper("cancelled", job: "b.gcode", layer: 6)], from: t0)
        store.flush()
        let prints = store.prints(JournalQuery())
        XCTAssertEqual(prints.reversed().map(\.result), [.finished, .cancelled])
        let (a, b) = (prints[1].key, prints[0].key)
        XCTAssertEqual(told.items, ["\(a) firstLayerDone", "\(a) ended", "\(b) ended"],
                       "each print's moments, once, in order; none for a first layer not seen (b was first seen at layer 5)")
    }

    func testARestartInTheMiddleContinuesTheSameRecord() throws {
        let url = try journal()
        let before = JournalStore(url: url)
        let started = feed(PrintRecorder(store: before, printer: printer), [klipper("printing", layer: 1), klipper("printing", layer: 10)],
                           from: t0)[0]
        before.close()

        let after = JournalStore(url: url)
        let times = feed(PrintRecorder(store: after, printer: printer),
                         [klipper("printing", layer: 11), klipper("printing", layer: 48), klipper("complete", layer: 48)], from: t0.addingTimeInterval(900))
        let prints = after.prints(JournalQuery())
        XCTAssertEqual(prints.count, 1, "not a second print")
        XCTAssertEqual(prints.first?.started, started)
        XCTAssertEqual(prints.first?.result, .finished)
        XCTAssertEqual(prints.first?.ended, times[2])
    }

    func testAPrintThatEndedWhileAwayIsEndedWhenThePrinterIsSeenAgain() throws {
        let url = try journal()
        let before = JournalStore(url: url)
        feed(PrintRecorder(store: before, printer: printer), [klipper("printing", layer: 1)], from: t0)
        before.close()

        let after = JournalStore(url: url)
        let seen = feed(PrintRecorder(store: after, printer: printer), [klipper("cancelled", layer: 20)], from: t0.addingTimeInterval(3600))
        XCTAssertEqual(after.prints(JournalQuery()).map(\.result), [.cancelled])
        XCTAssertEqual(after.prints(JournalQuery()).first?.ended, seen[0])

        let other = PrintRecorder(store: after, printer: PrintRecorder.Printer(id: "ender", name: "Ender", camera: nil))
        feed(other, [klipper("complete", job: "cube.gcode", layer: 48)], from: t0.addingTimeInterval(7200))
        XCTAssertEqual(after.prints(JournalQuery()).count, 1, "a print only seen ended was there before Layerwatch looked")
    }

    /// The journal's store, asked every 0.1 s until `done` holds of what it gives (at most 15 s).
    @discardableResult
    private func awaitJournal<Value>(_ store: JournalStore, _ what: String, _ read: (JournalStore) -> Value,
                                     until done: (Value) -> Bool) -> Value {
        let deadline = Date().addingTimeInterval(15)
        var value = read(store)
        while !done(value) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            value = read(store)
        }
        XCTAssertTrue(done(value), "\(what): \(value)")
        return value
    }

    /// The whole path the app takes: Moonraker's fake serves a print, the Moonraker client polls it
    /// and the recorder takes each live report.
    func testAPrintOnMoonrakerIsRecordedFromItsLiveStatus() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock { moonraker.stop() }
        let store = JournalStore(url: try journal())
        let recorder = PrintRecorder(store: store, printer: printer)
        let monitor = StatusMonitor(endpoint: .moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: nil),
                                    executor: DispatchQueue(label: "status")) { update in
            if update.connection == .live, let status = update.status { recorder.observe(status) }
        }
        monitor.start()
        addTeardownBlock { monitor.stop(waitingUpTo: 5) }
        func printStats(_ stats: [String: Any]) {
            moonraker.send(["cmd": "set", "status": ["print_stats": stats]])
        }

        printStats(["state": "printing", "filename": "benchy.gcode", "filament_used": 120.5, "info": ["current_layer": 1, "total_layer": 48]])
        let begun = awaitJournal(store, "the print begun", { $0.prints(JournalQuery()) }) { $0.first?.result == .underway }
        let key = try XCTUnwrap(begun.first?.key)
        printStats(["state": "paused"])
        awaitJournal(store, "the pause", { $0.events(ofPrint: key).map(\.kind) }) { $0 == [.pause] }
        printStats(["state": "printing", "info": ["current_layer": 30]])
        awaitJournal(store, "the resume", { $0.events(ofPrint: key).map(\.kind) }) { $0 == [.pause, .resume] }
        printStats(["state": "complete", "filament_used": 1530.25, "info": ["current_layer": 48]])
        let ended = awaitJournal(store, "the end", { $0.prints(JournalQuery()) }) { $0.first?.result == .finished }

        XCTAssertEqual(ended.count, 1)
        let print = try XCTUnwrap(ended.first)
        XCTAssertEqual(print.job, "benchy.gcode")
        XCTAssertEqual(print.layer, 48)
        XCTAssertEqual(print.totalLayers, 48)
        XCTAssertEqual(print.filamentUsed, 1530.25)
        XCTAssertGreaterThan(try XCTUnwrap(print.duration), 0)
    }

    /// PrusaLink's `job.id` (Tests/Servers/prusalink_server.py's `/api/v1/status`) names the print:
    /// a restart of Layerwatch in the middle continues its record, and the next print of the same
    /// file, begun while Layerwatch was not running, is another print.
    func testAPrusaLinkPrintIsKnownByItsJobIdAcrossARestart() throws {
        let prusa = try TestServer(script: "prusalink_server.py", arguments: ["--password", "Pr1ntPass"])
        addTeardownBlock { prusa.stop() }
        let url = try journal()
        let mk4 = PrintRecorder.Printer(id: "mk4", name: "MK4", camera: nil)
        let endpoint = StatusEndpoint.prusaLink(host: "127.0.0.1", port: prusa.port, password: "Pr1ntPass")
        /// Layerwatch running: the journal, a recorder and the live status; quit by `quit`.
        func run() -> (store: JournalStore, quit: () -> Void) {
            let store = JournalStore(url: url)
            let recorder = PrintRecorder(store: store, printer: mk4)
            let monitor = StatusMonitor(endpoint: endpoint, executor: DispatchQueue(label: "prusalink-status")) { update in
                if update.connection == .live, let status = update.status { recorder.observe(status) }
            }
            monitor.start()
            return (store, { monitor.stop(waitingUpTo: 5); store.close() })
        }
        func set(_ state: String, job: [String: Any]?) {
            XCTAssertEqual(prusa.perform(["cmd": "set", "printer": ["state": state], "job": job ?? NSNull()])?.name, "done")
        }

        set("PRINTING", job: ["id": 41, "time_printing": 600, "progress": 20])
        let first = run()
        let begun = awaitJournal(first.store, "job 41 begun", { $0.prints(JournalQuery()) }) { $0.first?.printerJobID == "41" }
        first.quit()

        set("PRINTING", job: ["id": 41, "time_printing": 900, "progress": 50])
        let second = run()
        set("FINISHED", job: ["id": 41, "progress": 100])
        let finished = awaitJournal(second.store, "job 41 finished", { $0.prints(JournalQuery()) }) { $0.first?.result == .finished }
        XCTAssertEqual(finished.count, 1, "one print across the restart")
        XCTAssertEqual(finished.first?.key, begun.first?.key)
        XCTAssertEqual(finished.first?.started, begun.first?.started)

        set("IDLE", job: nil)
        set("PRINTING", job: ["id": 42, "time_printing": 60])
        awaitJournal(second.store, "job 42 begun", { $0.prints(JournalQuery()).map(\.printerJobID) }) { $0 == ["42", "41"] }
        second.quit()

        // While Layerwatch is not running, job 42 ends and job 43 of the same file begins.
        set("FINISHED", job: ["id": 42])
        set("IDLE", job: nil)
        set("PRINTING", job: ["id": 43, "time_printing": 30])
        let third = run()
        defer { third.quit() }
        let prints = awaitJournal(third.store, "job 43 begun", { $0.prints(JournalQuery()) }) { $0.count == 3 }
        XCTAssertEqual(prints.map(\.printerJobID), ["43", "42", "41"], "job 43 is not job 42 continued")
        XCTAssertEqual(prints.map(\.job), Array(repeating: "benchy.bgcode", count: 3))
        XCTAssertEqual(prints.map(\.result), [.underway, .underway, .finished], "job 42's end was not seen")
    }

    /// A print Layerwatch started (`JournalStore.expectPrint`, as the upload code calls it once the
    /// printer took the file): the next print of that file on that printer within the time allowed
    /// is marked, once; a print of another file, on another printer, or too late, is not.
    func testOnlyThePrintOfTheFileSentToThatPrinterIsMarkedStartedFromLayerwatch() throws {
        let store = JournalStore(url: try journal())
        let voron = PrintRecorder(store: store, printer: printer)
        let other = PrintRecorder(store: store, printer: PrintRecorder.Printer(id: "ender", name: "Ender", camera: nil))
        store.expectPrint(printerID: printer.id, file: "benchy.gcode", at: t0)
        feed(other, [klipper("printing", job: "benchy.gcode"), klipper("complete", job: "benchy.gcode")], from: t0)
        feed(voron, [klipper("printing", job: "cube.gcode"), klipper("complete", job: "cube.gcode")], from: t0)
        feed(voron, [klipper("printing", job: "gcodes/Benchy.gcode"), klipper("complete", job: "gcodes/Benchy.gcode")],
             from: t0.addingTimeInterval(180))
        feed(voron, [klipper("printing", job: "benchy.gcode"), klipper("complete", job: "benchy.gcode")], from: t0.addingTimeInterval(300))

        // Bambu names the print by its plate, the file was `Vase.gcode.3mf`; sent too long before, it is not waited for.
        store.expectPrint(printerID: printer.id, file: "Vase.gcode.3mf", at: t0.addingTimeInterval(3600))
        store.expectPrint(printerID: printer.id, file: "late.gcode", at: t0.addingTimeInterval(3600))
        feed(voron, [klipper("printing", job: "Vase"), klipper("complete", job: "Vase")], from: t0.addingTimeInterval(3660))
        feed(voron, [klipper("printing", job: "late.gcode"), klipper("complete", job: "late.gcode")],
             from: t0.addingTimeInterval(3600 + PrintRecorder.expectation + 1))

        // Under way already when the upload code tells it (the printer answered after it began):
        // marked at its next report.
        feed(voron, [klipper("printing", job: "quick.gcode", layer: 1)], from: t0.addingTimeInterval(7200))
        store.expectPrint(printerID: printer.id, file: "quick.gcode", at: t0.addingTimeInterval(7230))
        feed(voron, [klipper("printing", job: "quick.gcode", layer: 2), klipper("complete", job: "quick.gcode")],
             from: t0.addingTimeInterval(7240))

        let prints = store.prints(JournalQuery()).reversed().map { ($0.printerName, $0.job ?? "", $0.startedFromLayerwatch, $0.sentFile) }
        XCTAssertEqual(prints.map(\.0), ["Ender", "Voron 2.4", "Voron 2.4", "Voron 2.4", "Voron 2.4", "Voron 2.4", "Voron 2.4"])
        XCTAssertEqual(prints.map(\.1), ["benchy.gcode", "cube.gcode", "gcodes/Benchy.gcode", "benchy.gcode", "Vase", "late.gcode", "quick.gcode"])
        XCTAssertEqual(prints.map(\.2), [false, false, true, false, true, false, true])
        XCTAssertEqual(prints.map(\.3), [nil, nil, "benchy.gcode", nil, "Vase.gcode.3mf", nil, "quick.gcode"])
    }

    /// The expectation is in the journal, not in the process that left it: one store object (as
    /// `layerwatch print` opens the journal) leaves it, a recorder on another store object opened
    /// on the same file (the app's) uses it — for a print that begins after, or one under way that
    /// began shortly before — once, only for that printer and file, not after its `until`; the
    /// expired and the used ones are deleted.
    func testAnExpectationLeftByAnotherProcessMarksOnePrintWhileItStands() throws {
        let url = try journal()
        let app = JournalStore(url: url)
        let voron = PrintRecorder(store: app, printer: printer)
        let ender = PrintRecorder(store: app, printer: PrintRecorder.Printer(id: "ender", name: "Ender", camera: nil))
        let command = JournalStore(url: url)
        command.expectPrint(printerID: printer.id, file: "benchy.gcode", at: t0)
        command.expectPrint(printerID: printer.id, file: "cube.gcode", within: 60, at: t0)
        command.flush()

        feed(ender, [klipper("printing", job: "benchy.gcode"), klipper("complete", job: "benchy.gcode")], from: t0)
        feed(voron, [klipper("printing", job: "vase.gcode"), klipper("complete", job: "vase.gcode")], from: t0.addingTimeInterval(30))
        feed(voron, [klipper("printing", job: "cube.gcode"), klipper("complete", job: "cube.gcode")], from: t0.addingTimeInterval(150))
        feed(voron, [klipper("printing", job: "benchy.gcode"), klipper("complete", job: "benchy.gcode")], from: t0.addingTimeInterval(300))
        feed(voron, [klipper("printing", job: "benchy.gcode"), klipper("complete", job: "benchy.gcode")], from: t0.addingTimeInterval(420))

        // Begun before the command left word (the printer started it as the upload ended), and one
        // begun long before the word, of the same name, is not it.
        feed(voron, [klipper("printing", job: "gear.gcode", layer: 1)], from: t0.addingTimeInterval(600))
        app.flush()  // the recorder's reports and the command's word in the order of their times
        command.expectPrint(printerID: printer.id, file: "gear.gcode", at: t0.addingTimeInterval(620))
        command.flush()
        feed(voron, [klipper("printing", job: "gear.gcode", layer: 2), klipper("complete", job: "gear.gcode")], from: t0.addingTimeInterval(630))
        feed(voron, [klipper("printing", job: "long.gcode", layer: 1)], from: t0.addingTimeInterval(1000))
        app.flush()
        command.expectPrint(printerID: printer.id, file: "long.gcode", at: t0.addingTimeInterval(1000 + PrintRecorder.expectation + 1))
        command.flush()
        feed(voron, [klipper("printing", job: "long.gcode", layer: 2), klipper("complete", job: "long.gcode")],
             from: t0.addingTimeInterval(1000 + PrintRecorder.expectation + 60))
        command.close()

        let prints = app.prints(JournalQuery()).reversed().map { ($0.printerName, $0.job ?? "", $0.startedFromLayerwatch, $0.sentFile) }
        XCTAssertEqual(prints.map(\.0), ["Ender"] + Array(repeating: "Voron 2.4", count: 6))
        XCTAssertEqual(prints.map(\.1), ["benchy.gcode", "vase.gcode", "cube.gcode", "benchy.gcode", "benchy.gcode", "gear.gcode", "long.gcode"])
        XCTAssertEqual(prints.map(\.2), [false, false, false, true, false, true, false], "another printer's, another file's, too late, once")
        XCTAssertEqual(prints.map(\.3), [nil, nil, nil, "benchy.gcode", nil, "gear.gcode", nil])
        app.close()
        XCTAssertEqual(try SQLiteDatabase(path: url.path, busyTimeout: 1).rows("SELECT file FROM expected_prints") { $0.text(0) ?? "" },
                       ["long.gcode"], "the used and the expired are gone; the one still standing stays")
    }

    /// Videos of the printer's camera linked to the print they were made of: a recording to the print
    /// under way, or to the one that ended after it began; a timelapse to the print of its job; a
    /// recording made while no print ran, or a timelapse of another job, to none.
    func testAVideoIsLinkedToThePrintItWasMadeOf() throws {
        let store = JournalStore(url: try journal())
        let recorder = PrintRecorder(store: store, printer: printer)
        func video(_ kind: JournalVideo.Kind, _ name: String) -> JournalVideo {
            JournalVideo(kind: kind, file: URL(fileURLWithPath: "/videos/\(name).mkv"))
        }
        let idleSince = Date()
        recorder.observe(klipper("standby"))
        recorder.add(video(.recording, "idle"), since: idleSince)
        let recordingSince = Date()
        recorder.observe(klipper("printing", job: "gear.gcode", layer: 1))
        recorder.add(video(.recording, "during"), since: recordingSince)
        recorder.observe(klipper("complete", job: "gear.gcode", layer: 48))
        recorder.add(video(.recording, "over-the-end"), since: recordingSince)
        recorder.add(video(.timelapse, "other-job"), job: "cube.gcode")
        recorder.add(video(.timelapse, "gear"), job: "gear.gcode")
        recorder.add(video(.recording, "after"), since: Date().addingTimeInterval(1))

        let prints = store.prints(JournalQuery())
        XCTAssertEqual(prints.count, 1)
        XCTAssertEqual(store.videos(ofPrint: try XCTUnwrap(prints.first).key),
                       [video(.recording, "during"), video(.recording, "over-the-end"), video(.timelapse, "gear")])
        XCTAssertEqual(store.videosByPrint().values.map(\.count), [3], "no video of no print")
    }

    /// Bambu's reports, merged as its client merges them.
    private func bambu(_ report: inout BambuReport, _ fields: [String: Any]) -> PrinterStatus {
        XCTAssertTrue(report.merge(payload: ["print": fields.merging(["command": "push_status"]) { $1 }]))
        return report.status
    }

    func testABambuPrintIsKnownByItsTaskAcrossARestart() throws {
        let url = try journal()
        let x1 = PrintRecorder.Printer(id: "x1c", name: "X1 Carbon", camera: nil)
        var report = BambuReport()
        let running = bambu(&report, ["gcode_state": "RUNNING", "subtask_name": "Cube", "task_id": "812345", "layer_num": 3,
                                      "total_layer_num": 100, "print_error": 0, "hms": []])
        let alerted = bambu(&report, ["hms": [["attr": 0x0300_1000, "code": 0x0002_0002]]])
        let paused = bambu(&report, ["gcode_state": "PAUSE"])
        let resumed = bambu(&report, ["gcode_state": "RUNNING", "layer_num": 40])
        let stopped = bambu(&report, ["gcode_state": "FAILED", "print_error": 0x0300_400C, "layer_num": 41])

        let before = JournalStore(url: url)
        let times = feed(PrintRecorder(store: before, printer: x1), [running, alerted, paused], from: t0)
        before.close()
        let after = JournalStore(url: url)
        let renamed = PrintRecorder.Printer(id: "x1c", name: "Workshop X1", camera: nil)
        let later = feed(PrintRecorder(store: after, printer: renamed), [paused, resumed, stopped], from: t0.addingTimeInterval(600))

        let prints = after.prints(JournalQuery())
        XCTAssertEqual(prints.count, 1)
        let print = try XCTUnwrap(prints.first)
        XCTAssertEqual(print.printerJobID, "812345")
        XCTAssertEqual(print.printerName, "X1 Carbon", "the name at the time it began")
        XCTAssertEqual(print.started, times[0])
        XCTAssertEqual(print.result, .cancelled, "Bambu's 'task was canceled' is a stop")
        XCTAssertEqual(print.ended, later[2])
        XCTAssertEqual(print.layer, 41)
        XCTAssertEqual(store(after, eventsOf: print), [.alert, .pause, .resume])
        XCTAssertEqual(after.events(ofPrint: print.key).first?.words, alerted.alerts.first?.summary)
        XCTAssertNotNil(alerted.alerts.first?.summary)

        let failing = bambu(&report, ["gcode_state": "RUNNING", "subtask_name": "Vase", "task_id": "812346", "print_error": 0])
        let failed = bambu(&report, ["gcode_state": "FAILED", "print_error": 0x0700_8011])
        feed(PrintRecorder(store: after, printer: renamed), [failing, failed], from: t0.addingTimeInterval(7200))
        let vase = try XCTUnwrap(after.prints(JournalQuery(search: "vase")).first)
        XCTAssertEqual(vase.result, .failed)
        XCTAssertEqual(vase.error, failed.errorText)
        XCTAssertNotNil(vase.error)
    }

    private func store(_ store: JournalStore, eventsOf print: JournalPrint) -> [JournalEvent.Kind] {
        store.events(ofPrint: print.key).map(\.kind)
    }
}

/// What a callback on the journal's queue was handed, read by the test after a flush.
private final class LockedList<Item>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Item] = []
    var items: [Item] { lock.withLock { stored } }
    func append(_ item: Item) { lock.withLock { stored.append(item) } }
}
