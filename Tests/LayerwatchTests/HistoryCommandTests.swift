import Foundation
import JournalKit
import TestSupport
import XCTest

/// `layerwatch history` as a user runs it, on a journal the store wrote (as the app writes it) in
/// the test's own `XDG_DATA_HOME`, with a saved printer in its own `XDG_CONFIG_HOME`: the table,
/// JSON and CSV of what was recorded, the filters, errors in words, and a ruined journal set aside.
final class HistoryCommandTests: XCTestCase {
    private var home: URL!
    private var journal: URL { home.appendingPathComponent("data/layerwatch/journal.sqlite3") }
    private var environment: [String: String] {
        ["XDG_DATA_HOME": home.appendingPathComponent("data").path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "TZ": "UTC"]
    }
    private let voronID = "6F9619FF-8B86-D011-B42D-00CF4FC964FF"
    private let now = Date()

    override func setUpWithError() throws {
        home = try TestPaths.temporaryDirectory()
        let config = home.appendingPathComponent("config/layerwatch")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
        {"formatVersion": 3, "printers": [{"id": "\(voronID)", "name": "Voron", "kind": "klipper", "host": "127.0.0.1", "apiPort": 7125,
                                           "cameras": []}]}
        """.utf8).write(to: config.appendingPathComponent("printers.json"))
    }

    /// Three prints of two printers: a finished one with its final picture and two videos, which
    /// Layerwatch started (the Voron, renamed since: its id still names it), a failed one an hour
    /// before, a cancelled one three days before.
    private func writeJournal() throws -> [JournalPrint] {
        let picture = home.appendingPathComponent("data/layerwatch/pictures/Voron 2026-12-05 10.00.00.jpg")
        let started = now.addingTimeInterval(-7200).rounded
        let prints = [
            JournalPrint(key: "\(voronID)/job-id/42", printerID: voronID, printerName: "Voron 2.4", job: "gear, \"big\".gcode", printerJobID: "42",
                         started: started, ended: started.addingTimeInterval(3725), result: .finished, finalPicture: picture,
                         startedFromLayerwatch: true, sentFile: "gear.gcode"),
            JournalPrint(key: "x1c/a/1", printerID: "x1c", printerName: "X1C", job: "vase.3mf", started: started.addingTimeInterval(-3600),
                         ended: started.addingTimeInterval(-3000), result: .failed, error: "Filament ran out", fromPrinterHistory: true),
            JournalPrint(key: "x1c/b/1", printerID: "x1c", printerName: "X1C", job: "bracket.3mf", started: started.addingTimeInterval(-3 * 86400),
                         ended: started.addingTimeInterval(-3 * 86400 + 59), result: .cancelled),
        ]
        let store = JournalStore(url: journal)
        prints.forEach(store.record)
        videos.forEach { store.add($0, toPrint: prints[0].key) }
        store.close()
        return prints
    }

    private var videos: [JournalVideo] {
        [JournalVideo(kind: .timelapse, file: home.appendingPathComponent("Videos/Voron timelapse.mkv")),
         JournalVideo(kind: .recording, file: home.appendingPathComponent("Videos/Voron 10.05.mkv"))]
    }

    private func history(_ arguments: [String]) throws -> CommandRun {
        try CommandRun.product("layerwatch", ["history"] + arguments, timeout: 30, environment: environment)
    }

    private func objects(_ run: CommandRun) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout + run.stderr)
    }

    func testJSONHasEachPrintAsTheJournalHoldsIt() throws {
        let written = try writeJournal()
        let run = try history(["--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let printed = try objects(run)
        XCTAssertEqual(printed.map { $0["job"] as? String }, written.map(\.job), "newest first")
        XCTAssertEqual(printed.map { $0["result"] as? String }, written.map(\.result.rawValue))
        XCTAssertEqual(printed.map { $0["printer"] as? String }, written.map(\.printerName))
        XCTAssertEqual(printed.map { $0["duration"] as? Int }, written.map { $0.duration.map { Int($0) } })
        let iso = ISO8601DateFormatter()
        XCTAssertEqual(printed.map { ($0["start"] as? String).flatMap(iso.date(from:)) }, written.map(\.started))
        XCTAssertEqual(printed.map { ($0["end"] as? String).flatMap(iso.date(from:)) }, written.map(\.ended))
        XCTAssertEqual(printed.map { $0["finalPicture"] as? String }, written.map(\.finalPicture?.path))
        XCTAssertTrue(printed[1...].allSatisfy { $0["finalPicture"] is NSNull }, "no picture is null")
        XCTAssertEqual(printed.map { $0["error"] as? String }, written.map(\.error))
        XCTAssertEqual(printed.map { $0["fromPrinterHistory"] as? Bool }, written.map(\.fromPrinterHistory))
        XCTAssertEqual(printed.map { $0["videos"] as? [String] }, [videos.map(\.file.path), [], []], "a list of paths, empty without")
        XCTAssertEqual(printed.map { $0["startedFromLayerwatch"] as? Bool }, written.map(\.startedFromLayerwatch))
        XCTAssertEqual(written.map(\.startedFromLayerwatch), [true, false, false])
    }

    func testCSVHasTheSameColumnsQuotedAndTheTableIsInWords() throws {
        let written = try writeJournal()
        let csv = try history(["--csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let lines = csv.stdout.trimmingCharacters(in: .newlines).components(separatedBy: "\r\n")
        XCTAssertEqual(lines.first, "job,result,start,end,duration,printer,error,finalPicture,fromPrinterHistory,videos,startedFromLayerwatch")
        let iso = ISO8601DateFormatter()
        let first = written[0]
        XCTAssertEqual(lines[1], "\"gear, \"\"big\"\".gcode\",finished,\(iso.string(from: first.started)),\(iso.string(from: first.ended!)),3725,"
                       + "Voron 2.4,,\(first.finalPicture!.path),false,\"\(videos[0].file.path)\n\(videos[1].file.path)\",true")
        XCTAssertEqual(lines.count, 4)

        let table = try history([])
        XCTAssertEqual(table.status, 0, table.stderr)
        let rows = table.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.count, 4, table.stdout)
        XCTAssertTrue(rows[0].hasPrefix("STARTED"), rows[0])
        XCTAssertTrue(rows[1].contains("Voron 2.4") && rows[1].contains("Finished") && rows[1].contains("1 h 02 min"), rows[1])
        XCTAssertTrue(rows[2].contains("vase.3mf") && rows[2].contains("Failed") && rows[2].contains("10 min"), rows[2])
        XCTAssertTrue(rows[3].contains("bracket.3mf") && rows[3].contains("Cancelled") && rows[3].contains("59 s"), rows[3])
    }

    func testFiltersByPrinterSinceAndResult() throws {
        let written = try writeJournal()
        func jobs(_ arguments: [String]) throws -> [String?] {
            let run = try history(arguments + ["--json"])
            XCTAssertEqual(run.status, 0, run.stderr)
            return try objects(run).map { $0["job"] as? String }
        }
        XCTAssertEqual(try jobs(["--printer", "Voron"]), [written[0].job], "the saved printer's id names its prints under its old name")
        XCTAssertEqual(try jobs(["--printer", "X1C"]), [written[1].job, written[2].job], "a printer known by the journal only")
        XCTAssertEqual(try jobs(["--since", "24h"]), [written[0].job, written[1].job])
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = TimeZone(identifier: "UTC")
        day.dateFormat = "yyyy-MM-dd'T'HH:mm"
        XCTAssertEqual(try jobs(["--since", day.string(from: written[1].started)]), [written[0].job, written[1].job], "a date and time")
        XCTAssertEqual(try jobs(["--result", "failed"]), [written[1].job])
        XCTAssertEqual(try jobs(["--result", "cancelled", "--printer", "Voron"]), [])
    }

    func testErrorsAreInWords() throws {
        _ = try writeJournal()
        let unknown = try history(["--printer", "Prusa"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr.trimmingCharacters(in: .newlines), "No printer is called “Prusa”; there are “Voron”, “Voron 2.4”, “X1C”.")
        let since = try history(["--since", "last week"])
        XCTAssertEqual(since.status, 64)
        XCTAssertTrue(since.stderr.contains("--since takes a time ago such as 30m, 24h or 7d, or a date such as 2026-12-01, not “last week”."), since.stderr)
        let result = try history(["--result", "underway"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--result takes finished, failed or cancelled, not “underway”."), result.stderr)
    }

    func testARuinedJournalIsSetAsideAndTheListIsEmpty() throws {
        _ = try writeJournal()
        let ruined = Data(repeating: 0x5A, count: 4096) + (try Data(contentsOf: journal)).dropFirst(4096)
        try ruined.write(to: journal)
        let run = try history(["--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try objects(run).count, 0)
        let folder = journal.deletingLastPathComponent()
        let broken = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("journal.sqlite3.broken-") })
        XCTAssertEqual(run.stderr.trimmingCharacters(in: .newlines),
                       "The print journal could not be read. It was set aside as “\(folder.appendingPathComponent(broken).path)” and a new one started.")
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(broken)), ruined, "kept as it was")
        let again = try history(["--json"])
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stderr, "", "the new journal is read without a word")
    }

    func testAPrintSeenTwiceIsListedOnce() throws {
        let store = JournalStore(url: journal)
        let started = now.addingTimeInterval(-600).rounded
        let seen = JournalPrint(key: JournalPrint.key(printerID: voronID, printerJobID: "7", job: "cube.gcode", started: started),
                                printerID: voronID, printerName: "Voron", job: "cube.gcode", printerJobID: "7", started: started)
        store.record(seen)
        var again = seen  // seen again after a restart: the printer's job id names it, its start read a second later
        again.started = started.addingTimeInterval(1)
        store.record(again)
        store.close()
        let run = try history(["--json"])
        XCTAssertEqual(try objects(run).map { $0["job"] as? String }, ["cube.gcode"], run.stderr)
    }
}

private extension Date {
    /// To the second, as the JSON's ISO 8601 times are.
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
