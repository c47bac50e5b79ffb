import CSQLite
import Foundation
@testable import JournalKit
import TestSupport
import XCTest

/// The journal's file: what is written is read back (and after a reopen), a print is never twice,
/// an older journal is migrated, a file that cannot be used is set aside whole and a new one
/// starts, and ten thousand prints page quickly.
final class JournalStoreTests: XCTestCase {
    private func journalURL() throws -> URL {
        try makeTemporaryDirectory().appendingPathComponent("layerwatch/journal.sqlite3")
    }

    private func print(_ number: Int, printer: String = "printer-a", job: String? = nil, result: PrintResult = .finished,
                       started: Date = Date(timeIntervalSince1970: 1_760_000_000)) -> JournalPrint {
        let begun = started.addingTimeInterval(Double(number) * 600)
        return JournalPrint(key: JournalPrint.key(printerID: printer, printerJobID: nil, job: job ?? "part-\(number).gcode", started: begun),
                            printerID: printer, printerName: "Voron \(printer)", job: job ?? "part-\(number).gcode", started: begun,
                            ended: result == .underway ? nil : begun.addingTimeInterval(300), result: result)
    }

    func testTheJournalIsInTheUsersDataFolder() {
        XCTAssertEqual(JournalStore.defaultURL(environment: ["XDG_DATA_HOME": "/data/me", "HOME": "/home/me"]).path,
                       "/data/me/layerwatch/journal.sqlite3")
        XCTAssertEqual(JournalStore.defaultURL(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/me"]).path,
                       "/home/me/.local/share/layerwatch/journal.sqlite3", "a relative XDG_DATA_HOME is ignored, as the spec says")
    }

    func testWhatIsWrittenIsReadBackAfterAReopen() throws {
        let url = try journalURL()
        let started = Date(timeIntervalSince1970: 1_765_000_000.25)
        let written = JournalPrint(key: "p1/job-id/0042", printerID: "p1", printerName: "X1 Carbon", camera: "rtsps://printer/1",
                                   job: "Benchy ✓", printerJobID: "0042", started: started, ended: started.addingTimeInterval(3725.5),
                                   result: .failed, error: "Nozzle clog detected", layer: 120, totalLayers: 240, filamentUsed: 1234.5,
                                   fromPrinterHistory: true, firstLayerPicture: URL(fileURLWithPath: "/data/first.jpg"),
                                   finalPicture: nil)
        let store = JournalStore(url: url)
        XCTAssertEqual(store.opening, .opened)
        store.record(written)
        store.add(JournalEvent(kind: .pause, words: "Filament runout", at: started.addingTimeInterval(60)), toPrint: written.key)
        store.add(JournalEvent(kind: .resume, at: started.addingTimeInterval(90)), toPrint: written.key)
        store.add(JournalVideo(kind: .timelapse, file: URL(fileURLWithPath: "/videos/benchy.mp4")), toPrint: written.key)
        store.setPicture(URL(fileURLWithPath: "/data/final.jpg"), final: true, ofPrint: written.key)
        store.close()
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))

        let reopened = JournalStore(url: url)
        XCTAssertEqual(reopened.opening, .opened)
        var expected = written
        expected.finalPicture = URL(fileURLWithPath: "/data/final.jpg")
        XCTAssertEqual(reopened.print(key: written.key), expected)
        XCTAssertEqual(reopened.print(key: written.key)?.duration, 3725.5)
        XCTAssertEqual(reopened.events(ofPrint: written.key),
                       [JournalEvent(kind: .pause, words: "Filament runout", at: started.addingTimeInterval(60)),
                        JournalEvent(kind: .resume, at: started.addingTimeInterval(90))])
        XCTAssertEqual(reopened.videos(ofPrint: written.key), [JournalVideo(kind: .timelapse, file: URL(fileURLWithPath: "/videos/benchy.mp4"))])
        XCTAssertEqual(try journalMode(of: url), "wal")
    }

    func testAPrintOfTheSameKeyIsRecordedOnce() throws {
        let store = JournalStore(url: try journalURL())
        let first = print(1, result: .underway)
        var again = first
        again.printerName = "Renamed"
        again.result = .finished
        store.record(first)
        store.record(again)
        store.record(print(2))
        XCTAssertEqual(store.prints(JournalQuery()).map(\.key), [print(2).key, first.key])
        XCTAssertEqual(store.print(key: first.key), first, "the first record stays")
    }

    func testAnOlderJournalIsMigratedWithItsPrints() throws {
        let url = try journalURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {  // a journal as version 1 left it
            let old = try SQLiteDatabase(path: url.path, busyTimeout: 1)
            try JournalSchema.migrate(old, to: 1)
            try old.run("INSERT INTO prints (key, printer_id, printer_name, job, started, ended, result) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [.text("old/1"), .text("old"), .text("Ender"), .text("Cube.gcode"), .real(1_700_000_000), .real(1_700_003_600),
                         .text("cancelled")])
        }
        XCTAssertEqual(try userVersion(of: url), 1)
        let store = JournalStore(url: url)
        XCTAssertEqual(store.opening, .opened)
        XCTAssertEqual(store.prints(JournalQuery()).map(\.job), ["Cube.gcode"])
        XCTAssertEqual(store.print(key: "old/1")?.result, .cancelled)
        store.add(JournalVideo(kind: .recording, file: URL(fileURLWithPath: "/videos/cube.mkv")), toPrint: "old/1")
        XCTAssertEqual(store.videos(ofPrint: "old/1").map(\.kind), [.recording], "version 2's table is there")
        store.close()
        XCTAssertEqual(try userVersion(of: url), JournalSchema.migrations.count)
    }

    func testAVersionTwoJournalKeepsItsRowsAndLearnsWhatLayerwatchStarted() throws {
        let url = try journalURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {  // a journal as version 2 left it: a print with a video
            let old = try SQLiteDatabase(path: url.path, busyTimeout: 1)
            try JournalSchema.migrate(old, to: 2)
            try old.run("""
                INSERT INTO prints (key, printer_id, printer_name, job, printer_job_id, started, ended, result, filament_mm, final_picture)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text("mk4/job-id/7"), .text("mk4"), .text("MK4"), .text("gear.bgcode"), .text("7"), .real(1_700_000_000),
                      .real(1_700_003_600), .text("finished"), .real(2500.5), .text("/data/gear.jpg")])
            try old.run("INSERT INTO print_videos (print_id, kind, path) SELECT id, 'timelapse', '/videos/gear.mkv' FROM prints")
        }
        XCTAssertEqual(try userVersion(of: url), 2)
        let store = JournalStore(url: url)
        XCTAssertEqual(store.opening, .opened)
        let kept = try XCTUnwrap(store.print(key: "mk4/job-id/7"))
        XCTAssertEqual(kept, JournalPrint(key: "mk4/job-id/7", printerID: "mk4", printerName: "MK4", job: "gear.bgcode", printerJobID: "7",
                                          started: Date(timeIntervalSince1970: 1_700_000_000), ended: Date(timeIntervalSince1970: 1_700_003_600),
                                          result: .finished, filamentUsed: 2500.5, finalPicture: URL(fileURLWithPath: "/data/gear.jpg")))
        XCTAssertFalse(kept.startedFromLayerwatch, "a print from before was not started by Layerwatch")
        XCTAssertEqual(store.videos(ofPrint: kept.key).map(\.file.path), ["/videos/gear.mkv"])

        var started = print(1)
        (started.startedFromLayerwatch, started.sentFile) = (true, "part-1.gcode")
        store.record(started)
        store.close()
        XCTAssertEqual(try userVersion(of: url), JournalSchema.migrations.count)
        let reopened = JournalStore(url: url)
        XCTAssertEqual(reopened.print(key: started.key), started, "the new columns are written and read back")
        XCTAssertEqual(reopened.print(key: kept.key), kept)
    }

    func testAVersionThreeJournalKeepsItsRowsAndTakesExpectedPrints() throws {
        let url = try journalURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var started = print(1)
        (started.startedFromLayerwatch, started.sentFile) = (true, "part-1.gcode")
        do {  // a journal as version 3 left it: a print Layerwatch started, with a video
            let old = try SQLiteDatabase(path: url.path, busyTimeout: 1)
            try JournalSchema.migrate(old, to: 3)
            try old.run("""
                INSERT INTO prints (key, printer_id, printer_name, job, started, ended, result, started_from_layerwatch, sent_file)
                VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)
                """, [.text(started.key), .text(started.printerID), .text(started.printerName), .init(started.job),
                      .real(started.started.timeIntervalSince1970), .init(started.ended?.timeIntervalSince1970),
                      .text(started.result.rawValue), .init(started.sentFile)])
            try old.run("INSERT INTO print_videos (print_id, kind, path) SELECT id, 'recording', '/videos/part.mkv' FROM prints")
        }
        XCTAssertEqual(try userVersion(of: url), 3)
        let store = JournalStore(url: url)
        XCTAssertEqual(store.opening, .opened)
        XCTAssertEqual(store.print(key: started.key), started, "the print and its mark are kept")
        XCTAssertEqual(store.videos(ofPrint: started.key).map(\.file.path), ["/videos/part.mkv"])
        store.expectPrint(printerID: "printer-b", file: "part-2.gcode")
        store.close()
        XCTAssertEqual(try userVersion(of: url), JournalSchema.migrations.count)
        let table = try SQLiteDatabase(path: url.path, busyTimeout: 1).rows("SELECT printer_id, file FROM expected_prints") {
            [$0.text(0) ?? "", $0.text(1) ?? ""]
        }
        XCTAssertEqual(table, [["printer-b", "part-2.gcode"]], "version 4's table is there and written")
    }

    func testAGarbageFileIsSetAsideAndANewJournalStarts() throws {
        let url = try journalURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try garbage.write(to: url)
        let store = JournalStore(url: url)
        guard case .setAside(let broken, _) = store.opening else { return XCTFail("not set aside: \(store.opening)") }
        XCTAssertTrue(broken.lastPathComponent.hasPrefix("journal.sqlite3.broken-"), broken.path)
        let told = expectation(description: "the banner is told on its executor")
        let banner = DispatchQueue(label: "banner")
        store.opening(on: banner) { opening in
            dispatchPrecondition(condition: .onQueue(banner))
            XCTAssertEqual(opening, .setAside(brokenFile: broken, reason: "SQLite 26: file is not a database"))
            told.fulfill()
        }
        wait(for: [told], timeout: 5)
        XCTAssertEqual(try Data(contentsOf: broken), garbage, "the garbage is kept as it was")
        store.record(print(1))
        XCTAssertEqual(store.prints(JournalQuery()).map(\.key), [print(1).key], "the new journal records")
    }

    func testAJournalHeldByAnotherProcessIsSetAsideWithWhatItHolds() throws {
        let url = try journalURL()
        let first = JournalStore(url: url)
        first.record(print(1))
        first.close()
        // Another connection holds the journal: the write lock, and a write not yet committed.
        let other = try SQLiteDatabase(path: url.path, busyTimeout: 0)
        try other.execute("BEGIN EXCLUSIVE")
        try other.run("UPDATE prints SET error = 'held' WHERE key = ?", [.text(print(1).key)])

        let started = Date()
        let store = JournalStore(url: url, busyTimeout: 0.5)
        guard case .setAside(let broken, _) = store.opening else { return XCTFail("not set aside: \(store.opening)") }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.5, "it waited for the lock first")
        store.record(print(2))
        XCTAssertEqual(store.prints(JournalQuery()).map(\.key), [print(2).key])
        try other.execute("COMMIT")
        let aside = JournalStore(url: broken)
        XCTAssertEqual(aside.opening, .opened)
        XCTAssertEqual(aside.prints(JournalQuery()).map(\.key), [print(1).key], "the print written before is in the file set aside")
        XCTAssertEqual(aside.print(key: print(1).key)?.error, "held")
    }

    func testAWriteThatFindsTheJournalHeldSetsItAsideAndIsDoneOnTheNewOne() throws {
        let url = try journalURL()
        let store = JournalStore(url: url, busyTimeout: 0.3)
        store.record(print(1))
        XCTAssertEqual(store.prints(JournalQuery()).count, 1)
        let other = try SQLiteDatabase(path: url.path, busyTimeout: 0)
        try other.execute("BEGIN EXCLUSIVE")
        try other.run("DELETE FROM prints")

        store.record(print(2))
        guard case .setAside(let broken, _) = store.opening else { return XCTFail("not set aside: \(store.opening)") }
        XCTAssertEqual(store.prints(JournalQuery()).map(\.key), [print(2).key], "the write was done on the new journal")
        try other.execute("ROLLBACK")
        XCTAssertEqual(JournalStore(url: broken).prints(JournalQuery()).map(\.key), [print(1).key], "nothing written is lost")
    }

    func testATruncatedJournalIsSetAsideWhole() throws {
        let url = try journalURL()
        let first = JournalStore(url: url)
        for number in 0..<300 { first.record(print(number)) }
        first.close()
        let whole = try Data(contentsOf: url)
        XCTAssertGreaterThan(whole.count, 16384)
        let truncated = whole.prefix(whole.count / 2)
        try truncated.write(to: url)

        let store = JournalStore(url: url)
        guard case .setAside(let broken, _) = store.opening else { return XCTFail("not set aside: \(store.opening)") }
        XCTAssertEqual(try Data(contentsOf: broken), truncated)
        XCTAssertEqual(store.prints(JournalQuery()), [])
        store.record(print(1))
        XCTAssertEqual(store.prints(JournalQuery()).count, 1)
    }

    func testAJournalRuinedAndSetAsideByAnotherProcessIsLeftForTheNewOne() throws {
        let url = try journalURL()
        let app = JournalStore(url: url)
        app.record(print(1))
        XCTAssertEqual(app.prints(JournalQuery()).count, 1)
        // Another process finds the journal ruined (here: replaced by garbage once SQLite folded
        // the -wal file in, which otherwise still holds what was written) and sets it aside.
        _ = try SQLiteDatabase(path: url.path, busyTimeout: 1).rows("PRAGMA wal_checkpoint(TRUNCATE)") { $0.integer(0) }
        let garbage = url.deletingLastPathComponent().appendingPathComponent("garbage")
        try Data(repeating: 0x5A, count: 8192).write(to: garbage)
        XCTAssertEqual(rename(garbage.path, url.path), 0)
        let cli = JournalStore(url: url)
        guard case .setAside = cli.opening else { return XCTFail("not set aside: \(cli.opening)") }

        let wal = URL(fileURLWithPath: url.path + "-wal")
        let newWAL = try XCTUnwrap(FileIdentity(of: wal))
        app.record(print(2))
        app.flush()
        XCTAssertEqual(FileIdentity(of: wal), newWAL, "letting go of the old journal left the new one's -wal file alone")
        XCTAssertEqual(JournalStore(url: url).prints(JournalQuery()).map(\.key), [print(2).key],
                       "the app now writes where the other process (and the next) reads")
        XCTAssertEqual(app.prints(JournalQuery()).map(\.key), [print(2).key])
    }

    func testAJournalOnAFullDiskIsSetAsideAndANewOneStarts() throws {
        let url = try journalURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // /dev/full reads as an empty file and refuses every write with ENOSPC, as a full disk does.
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/full")
        let store = JournalStore(url: url)
        guard case .setAside(let broken, let reason) = store.opening else { return XCTFail("not set aside: \(store.opening)") }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: broken.path), "/dev/full")
        XCTAssertTrue(reason.contains("full"), reason)
        store.record(print(1))
        XCTAssertEqual(store.prints(JournalQuery()).count, 1)
    }

    func testAJournalThatCannotBeMadeRecordsNothingAndSaysSo() throws {
        let blocker = try makeTemporaryDirectory().appendingPathComponent("not-a-folder")
        try Data("a file where the folder should be".utf8).write(to: blocker)
        let store = JournalStore(url: blocker.appendingPathComponent("layerwatch/journal.sqlite3"))
        guard case .unavailable = store.opening else { return XCTFail("not unavailable: \(store.opening)") }
        store.record(print(1))
        XCTAssertEqual(store.prints(JournalQuery()), [])
        XCTAssertEqual(try String(contentsOf: blocker, encoding: .utf8), "a file where the folder should be")
    }

    func testTenThousandPrintsPageQuicklyNewestFirst() throws {
        let store = JournalStore(url: try journalURL())
        let results: [PrintResult] = [.finished, .finished, .failed, .cancelled]
        let prints = (0..<10_000).map { number in
            print(number, printer: number % 2 == 0 ? "printer-a" : "printer-b", job: number % 100 == 0 ? "Benchy \(number).gcode" : nil,
                  result: results[number % results.count])
        }
        store.record(contentsOf: prints)
        store.flush()

        var seen: [JournalPrint] = []
        var slowest: TimeInterval = 0
        var page = JournalQuery(limit: 100)
        while true {
            let asked = Date()
            let rows = store.prints(page)
            slowest = max(slowest, Date().timeIntervalSince(asked))
            guard let last = rows.last else { break }
            seen += rows
            page.after = last
        }
        XCTAssertEqual(seen.map(\.key), prints.reversed().map(\.key), "every print once, newest first")
        XCTAssertLessThan(slowest, 0.05, "a page, even the last, comes in under 50 ms")
        let plans = try [JournalQuery(after: seen[5000]), JournalQuery(printerID: "printer-b", after: seen[5000]),
                         JournalQuery(results: [.failed], after: seen[5000])].map { try plan(of: $0, in: store.url) }
        for plan in plans {
            XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "no sort of all the prints for a page: \(plan)")
            XCTAssertTrue(plan.contains { $0.contains("USING INDEX") }, "a page walks an index: \(plan)")
        }

        let failedOfB = store.prints(JournalQuery(printerID: "printer-b", results: [.failed], limit: 10_000))
        XCTAssertEqual(failedOfB.map(\.key), prints.filter { $0.printerID == "printer-b" && $0.result == .failed }.reversed().map(\.key))
        let day = DateInterval(start: prints[1000].started, duration: 86_400)
        XCTAssertEqual(store.prints(JournalQuery(started: day, limit: 1000)).map(\.key),
                       prints.filter { day.contains($0.started) && $0.started < day.end }.reversed().map(\.key))
        XCTAssertEqual(store.prints(JournalQuery(search: "benchy", limit: 1000)).map(\.job),
                       prints.compactMap(\.job).filter { $0.hasPrefix("Benchy") }.reversed())
        XCTAssertEqual(store.prints(JournalQuery(search: "%", limit: 10)), [], "LIKE's wildcards are matched as themselves")
    }

    /// SQLite's plan for reading `query`'s page.
    private func plan(of query: JournalQuery, in url: URL) throws -> [String] {
        let (select, values) = JournalDatabase.select(query)
        return try SQLiteDatabase(path: url.path, busyTimeout: 1).rows("EXPLAIN QUERY PLAN " + select, values) { $0.text(3) ?? "" }
    }

    private func userVersion(of url: URL) throws -> Int {
        try SQLiteDatabase(path: url.path, busyTimeout: 1).rows("PRAGMA user_version") { $0.integer(0) ?? -1 }.first ?? -1
    }

    private func journalMode(of url: URL) throws -> String? {
        try SQLiteDatabase(path: url.path, busyTimeout: 1).rows("PRAGMA journal_mode") { $0.text(0) }.first ?? nil
    }
}
