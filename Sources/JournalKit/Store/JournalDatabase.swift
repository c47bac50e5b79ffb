import CSQLite
import Foundation

/// The journal's reads and writes as SQL, on one open and migrated connection. Used only on the
/// store's queue (`JournalStore`), which owns it.
final class JournalDatabase {
    private let sql: SQLiteDatabase
    /// The file it opened.
    let file: FileIdentity?

    /// Opens the journal at `url` in WAL mode and brings its tables to the newest version; throws
    /// when the file is no usable database (not one, damaged, held past `busyTimeout` seconds).
    init(url: URL, busyTimeout: TimeInterval) throws {
        sql = try SQLiteDatabase(path: url.path, busyTimeout: busyTimeout)
        try sql.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON")
        try JournalSchema.migrate(sql)
        let check = try sql.rows("PRAGMA quick_check") { $0.text(0) ?? "" }
        guard check == ["ok"] else { throw SQLiteError(code: SQLITE_CORRUPT, message: check.prefix(3).joined(separator: "; ")) }
        file = FileIdentity(of: url)
    }

    /// Adds `print` unless a print of its key is there already; whether it added it.
    @discardableResult
    func insert(_ print: JournalPrint) throws -> Bool {
        try sql.run("""
            INSERT INTO prints (key, printer_id, printer_name, camera, job, printer_job_id, started, ended, result, error,
                                layer, total_layers, filament_mm, from_printer_history, first_layer_picture, final_picture,
                                started_from_layerwatch, sent_file)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING
            """, [.text(print.key), .text(print.printerID), .text(print.printerName), .init(print.camera), .init(print.job),
                  .init(print.printerJobID), .real(print.started.timeIntervalSince1970), .init(print.ended?.timeIntervalSince1970),
                  .text(print.result.rawValue), .init(print.error), .init(print.layer), .init(print.totalLayers),
                  .init(print.filamentUsed), .integer(print.fromPrinterHistory ? 1 : 0), .init(print.firstLayerPicture?.path),
                  .init(print.finalPicture?.path), .integer(print.startedFromLayerwatch ? 1 : 0), .init(print.sentFile)]) > 0
    }

    /// Adds each of `prints` whose key the journal does not have yet, in one transaction.
    func insert(contentsOf prints: [JournalPrint]) throws {
        try sql.transaction { for print in prints { try insert(print) } }
    }

    /// Adds each of `prints` (a printer's history, all ended) whose key the journal does not have
    /// yet, and ends with the history's result one it still has under way (it ended while
    /// Layerwatch was not running), in one transaction.
    func remember(_ prints: [JournalPrint]) throws {
        try sql.transaction {
            for print in prints {
                guard try !insert(print) else { continue }
                try end(print.key, result: print.result, at: print.ended ?? print.started, error: print.error, layer: nil,
                        totalLayers: nil, filamentUsed: print.filamentUsed)
            }
        }
    }

    /// Ends the print of `key` if it is still under way: its result, end, error and last figures.
    func end(_ key: String, result: PrintResult, at end: Date, error: String?, layer: Int?, totalLayers: Int?, filamentUsed: Double?) throws {
        try sql.run("""
            UPDATE prints SET result = ?, ended = ?, error = ?, layer = coalesce(?, layer), total_layers = coalesce(?, total_layers),
                              filament_mm = coalesce(?, filament_mm)
            WHERE key = ? AND result = 'underway'
            """, [.text(result.rawValue), .real(end.timeIntervalSince1970), .init(error), .init(layer), .init(totalLayers),
                  .init(filamentUsed), .text(key)])
    }

    /// The figures of the print of `key` so far (those reported).
    func progress(_ key: String, layer: Int?, totalLayers: Int?, filamentUsed: Double?) throws {
        try sql.run("""
            UPDATE prints SET layer = coalesce(?, layer), total_layers = coalesce(?, total_layers), filament_mm = coalesce(?, filament_mm)
            WHERE key = ?
            """, [.init(layer), .init(totalLayers), .init(filamentUsed), .text(key)])
    }

    func add(_ event: JournalEvent, to key: String) throws {
        try sql.run("INSERT INTO print_events (print_id, kind, words, at) SELECT id, ?, ?, ? FROM prints WHERE key = ?",
                    [.text(event.kind.rawValue), .init(event.words), .real(event.at.timeIntervalSince1970), .text(key)])
    }

    func add(_ video: JournalVideo, to key: String) throws {
        try sql.run("INSERT OR IGNORE INTO print_videos (print_id, kind, path) SELECT id, ?, ? FROM prints WHERE key = ?",
                    [.text(video.kind.rawValue), .text(video.file.path), .text(key)])
    }

    /// Marks the print of `key` as started from Layerwatch, which sent `file`.
    func markStartedFromLayerwatch(_ key: String, file: String) throws {
        try sql.run("UPDATE prints SET started_from_layerwatch = 1, sent_file = ? WHERE key = ?", [.text(file), .text(key)])
    }

    /// Leaves word that Layerwatch asked the printer of `printerID` to print `file` (its name as
    /// sent), waited for until `until`; the expectations expired at `now`, of any printer, go.
    func expectPrint(printerID: String, file: String, until: Date, now: Date) throws {
        try sql.transaction {
            try sql.run("DELETE FROM expected_prints WHERE until < ?", [.real(now.timeIntervalSince1970)])
            try sql.run("INSERT INTO expected_prints (printer_id, file, until) VALUES (?, ?, ?)",
                        [.text(printerID), .text(file), .real(until.timeIntervalSince1970)])
        }
    }

    /// `print` marked started from Layerwatch if its printer's expectation of its file
    /// (`expectPrint`) stands at `now`: the expectation is taken (deleted, so that it marks no other
    /// print, whichever process records it) and the print recorded with its mark — added, or marked
    /// where its key is there — in one transaction. Nil when none stands: then nothing is written
    /// but the deletion of the printer's expired expectations.
    func markedIfExpected(_ print: JournalPrint, at now: Date) throws -> JournalPrint? {
        let stamp = now.timeIntervalSince1970
        let standing = try sql.rows("SELECT rowid, file, until FROM expected_prints WHERE printer_id = ? ORDER BY until, rowid",
                                    [.text(print.printerID)]) { row in (id: row.integer(0) ?? 0, file: row.text(1) ?? "", until: row.real(2) ?? 0) }
        if standing.contains(where: { $0.until < stamp }) {
            try sql.run("DELETE FROM expected_prints WHERE printer_id = ? AND until < ?", [.text(print.printerID), .real(stamp)])
        }
        guard let expected = standing.first(where: { $0.until >= stamp && JournalPrint.job(print.job, isFile: $0.file) }) else { return nil }
        return try sql.transaction {
            // Another process's recorder may have taken it meanwhile.
            guard try sql.run("DELETE FROM expected_prints WHERE rowid = ?", [.integer(Int64(expected.id))]) == 1 else { return nil }
            var marked = print
            (marked.startedFromLayerwatch, marked.sentFile) = (true, expected.file)
            if try !insert(marked) { try markStartedFromLayerwatch(marked.key, file: expected.file) }
            return marked
        }
    }

    /// Sets the print's first-layer or final picture.
    func setPicture(_ file: URL, final: Bool, of key: String) throws {
        try sql.run("UPDATE prints SET \(final ? "final_picture" : "first_layer_picture") = ? WHERE key = ?", [.text(file.path), .text(key)])
    }

    /// The pictures of the prints that ended before `cutoff` (or started before it, not ended),
    /// forgotten in the same transaction: the prints stay, without pictures.
    func takePictures(before cutoff: Date) throws -> [URL] {
        let old: [SQLiteValue] = [.real(cutoff.timeIntervalSince1970)]
        return try sql.transaction {
            let paths = try sql.rows("""
                SELECT first_layer_picture, final_picture FROM prints
                WHERE coalesce(ended, started) < ? AND (first_layer_picture IS NOT NULL OR final_picture IS NOT NULL)
                """, old) { [$0.text(0), $0.text(1)] }
            try sql.run("""
                UPDATE prints SET first_layer_picture = NULL, final_picture = NULL
                WHERE coalesce(ended, started) < ? AND (first_layer_picture IS NOT NULL OR final_picture IS NOT NULL)
                """, old)
            return paths.joined().compactMap { $0.map(URL.init(fileURLWithPath:)) }
        }
    }

    /// The prints that have pictures, the one that ended first (or started first, not ended)
    /// first: their keys and picture files.
    func picturedPrintsOldestFirst() throws -> [(key: String, files: [URL])] {
        try sql.rows("""
            SELECT key, first_layer_picture, final_picture FROM prints
            WHERE first_layer_picture IS NOT NULL OR final_picture IS NOT NULL ORDER BY coalesce(ended, started), key
            """) { row in (row.text(0) ?? "", [row.text(1), row.text(2)].compactMap { $0.map(URL.init(fileURLWithPath:)) }) }
    }

    /// Forgets the pictures of the print of `key`; the print stays.
    func forgetPictures(of key: String) throws {
        try sql.run("UPDATE prints SET first_layer_picture = NULL, final_picture = NULL WHERE key = ?", [.text(key)])
    }

    /// The page of prints `query` asks for, newest first.
    func prints(_ query: JournalQuery) throws -> [JournalPrint] {
        let (select, values) = Self.select(query)
        return try sql.rows(select, values, row: Self.print)
    }

    /// The SQL reading `query`'s page and its values: every filter and the page's start (the print
    /// before it, by start time then key) in one WHERE, walking an index newest first.
    static func select(_ query: JournalQuery) -> (sql: String, values: [SQLiteValue]) {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let interval = query.started {
            conditions.append("started >= ? AND started < ?")
            values += [.real(interval.start.timeIntervalSince1970), .real(interval.end.timeIntervalSince1970)]
        }
        if let since = query.endedSince {
            conditions.append("ended >= ?")
            values.append(.real(since.timeIntervalSince1970))
        }
        if let printerID = query.printerID {
            conditions.append("printer_id = ?")
            values.append(.text(printerID))
        }
        if let results = query.results {
            conditions.append("result IN (\(results.map { _ in "?" }.joined(separator: ", ")))")
            values += results.sorted { $0.rawValue < $1.rawValue }.map { .text($0.rawValue) }
        }
        if let search = query.search, !search.isEmpty {
            conditions.append("job LIKE ? ESCAPE '\\'")
            values.append(.text("%" + likeEscaped(search) + "%"))
        }
        if let after = query.after {
            conditions.append("(started < ? OR (started = ? AND key < ?))")
            let started = after.started.timeIntervalSince1970
            values += [.real(started), .real(started), .text(after.key)]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT \(printColumns) FROM prints \(filter) ORDER BY started DESC, key DESC LIMIT ?",
                values + [.integer(Int64(max(0, query.limit)))])
    }

    /// How many prints ended at or after `date`, by result.
    func endings(since date: Date) throws -> [PrintResult: Int] {
        let rows = try sql.rows("SELECT result, count(*) FROM prints WHERE ended >= ? AND result != 'underway' GROUP BY result",
                                [.real(date.timeIntervalSince1970)]) { row in
            (PrintResult(rawValue: row.text(0) ?? ""), row.integer(1) ?? 0)
        }
        return Dictionary(rows.compactMap { result, count in result.map { ($0, count) } }, uniquingKeysWith: +)
    }

    /// Each printer with a print in the journal: its id and its name at its newest print, by name.
    func printers() throws -> [JournalPrinter] {
        try sql.rows("""
            SELECT printer_id, (SELECT printer_name FROM prints AS newest WHERE newest.printer_id = printers.printer_id
                                ORDER BY started DESC, key DESC LIMIT 1)
            FROM (SELECT DISTINCT printer_id FROM prints) AS printers
            """) { JournalPrinter(id: $0.text(0) ?? "", name: $0.text(1) ?? "") }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }

    func print(_ key: String) throws -> JournalPrint? {
        try sql.rows("SELECT \(Self.printColumns) FROM prints WHERE key = ?", [.text(key)], row: Self.print).first
    }

    /// The newest print of the printer still under way, with `job`: the one a restart continues.
    func underway(printerID: String, job: String?) throws -> JournalPrint? {
        try sql.rows("""
            SELECT \(Self.printColumns) FROM prints WHERE printer_id = ? AND result = 'underway' AND job IS ?
            ORDER BY started DESC, key DESC LIMIT 1
            """, [.text(printerID), .init(job)], row: Self.print).first
    }

    func events(of key: String) throws -> [JournalEvent] {
        try sql.rows("""
            SELECT kind, words, at FROM print_events WHERE print_id = (SELECT id FROM prints WHERE key = ?) ORDER BY at, id
            """, [.text(key)]) { row in
            JournalEvent(kind: JournalEvent.Kind(rawValue: row.text(0) ?? "") ?? .alert, words: row.text(1),
                         at: Date(timeIntervalSince1970: row.real(2) ?? 0))
        }
    }

    func videos(of key: String) throws -> [JournalVideo] {
        try sql.rows("SELECT kind, path FROM print_videos WHERE print_id = (SELECT id FROM prints WHERE key = ?) ORDER BY id",
                     [.text(key)]) { row in
            JournalVideo(kind: JournalVideo.Kind(rawValue: row.text(0) ?? "") ?? .recording, file: URL(fileURLWithPath: row.text(1) ?? ""))
        }
    }

    /// Every print's videos, by the print's key, each print's in the order they were added.
    func videosByPrint() throws -> [String: [JournalVideo]] {
        let rows = try sql.rows("SELECT p.key, v.kind, v.path FROM print_videos v JOIN prints p ON p.id = v.print_id ORDER BY v.id") { row in
            (row.text(0) ?? "", JournalVideo(kind: JournalVideo.Kind(rawValue: row.text(1) ?? "") ?? .recording,
                                             file: URL(fileURLWithPath: row.text(2) ?? "")))
        }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
    }

    private static let printColumns = """
        key, printer_id, printer_name, camera, job, printer_job_id, started, ended, result, error, layer, total_layers, \
        filament_mm, from_printer_history, first_layer_picture, final_picture, started_from_layerwatch, sent_file
        """

    private static func print(_ row: SQLiteRow) -> JournalPrint {
        JournalPrint(key: row.text(0) ?? "", printerID: row.text(1) ?? "", printerName: row.text(2) ?? "", camera: row.text(3),
                     job: row.text(4), printerJobID: row.text(5), started: Date(timeIntervalSince1970: row.real(6) ?? 0),
                     ended: row.real(7).map(Date.init(timeIntervalSince1970:)), result: PrintResult(rawValue: row.text(8) ?? "") ?? .underway,
                     error: row.text(9), layer: row.integer(10), totalLayers: row.integer(11), filamentUsed: row.real(12),
                     fromPrinterHistory: row.integer(13) == 1, firstLayerPicture: row.text(14).map(URL.init(fileURLWithPath:)),
                     finalPicture: row.text(15).map(URL.init(fileURLWithPath:)), startedFromLayerwatch: row.integer(16) == 1,
                     sentFile: row.text(17))
    }

    /// `text` for a LIKE pattern with `\` as its escape: its own %, _ and \ match themselves.
    private static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
