import Foundation
import PrinterKit
import StreamKit

/// The print journal on disk (`$XDG_DATA_HOME/layerwatch/journal.sqlite3`), owned by one serial
/// queue: writes are queued there and return at once (never on the main loop); reads wait for the
/// writes before them and return synchronously (the CLI calls them directly, the app from a worker,
/// handing the result to the main loop itself). A journal that cannot be used — not a database,
/// damaged, held by another process past the busy timeout, impossible to open — is set aside
/// (`BrokenJournal`), never deleted, and a new one starts; `opening` says so. A write that finds
/// the journal damaged later does the same and is tried once more on the new one; a journal that
/// another process set aside or replaced meanwhile (`layerwatch history` finding it ruined) is
/// left for the file now at the path.
public final class JournalStore: @unchecked Sendable {
    public let url: URL
    private let busyTimeout: TimeInterval
    private let queue = DispatchQueue(label: "layerwatch.journal")
    /// On the queue only.
    private var database: JournalDatabase?
    private var opened = JournalOpening.opened
    /// On the queue only: told after each write (`onWrite`).
    private var written: (@Sendable () -> Void)?

    /// Opens (on its queue) the journal at `url`; a statement finding it locked waits `busyTimeout`
    /// seconds before the file counts as held.
    public init(url: URL = JournalStore.defaultURL(), busyTimeout: TimeInterval = 5) {
        self.url = url
        self.busyTimeout = busyTimeout
        queue.async { self.open() }
    }

    /// `$XDG_DATA_HOME/layerwatch/journal.sqlite3`, or under `~/.local/share` when that is unset or
    /// not absolute.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: UserHome.path(environment: environment)).appendingPathComponent(".local/share")
        return data.appendingPathComponent("layerwatch/journal.sqlite3")
    }

    /// Where the app keeps the prints' pictures: `pictures` beside the journal.
    public var picturesFolder: URL {
        url.deletingLastPathComponent().appendingPathComponent("pictures", isDirectory: true)
    }

    /// What opening the journal came to (waits for it: up to the busy timeout while another
    /// process holds the file); a journal set aside later says so too.
    public var opening: JournalOpening { queue.sync { opened } }

    /// Hands `body` what opening the journal came to, on `executor` (the main loop, for the banner),
    /// without waiting for it.
    public func opening(on executor: EventExecutor, _ body: @escaping @Sendable (JournalOpening) -> Void) {
        queue.async {
            let opened = self.opened
            executor.execute { body(opened) }
        }
    }

    // MARK: Writes (queued)

    /// Adds `print` unless the journal has a print of its key already.
    public func record(_ print: JournalPrint) {
        write { try $0.insert(print) }
    }

    /// Adds each of `prints` the journal does not have yet, in one transaction (a printer's own
    /// history, many prints at once).
    public func record(contentsOf prints: [JournalPrint]) {
        write { try $0.insert(contentsOf: prints) }
    }

    /// Adds `event` to the print of `key`.
    public func add(_ event: JournalEvent, toPrint key: String) {
        write { try $0.add(event, to: key) }
    }

    /// Adds a video made of the print of `key` (a file already written).
    public func add(_ video: JournalVideo, toPrint key: String) {
        write { try $0.add(video, to: key) }
    }

    /// Leaves word in the journal that Layerwatch sent `file` (its name as sent) to the printer of
    /// `printerID` and asked it to print it, at `now`: the recorder of whichever process records
    /// that printer (the app's, now or when it next sees the printer) marks the print of that file
    /// begun within `within` — or the one of it under way, begun less than
    /// `PrintRecorder.expectation` before it looks — started from Layerwatch, once.
    public func expectPrint(printerID: String, file: String, within: TimeInterval = PrintRecorder.expectation, at now: Date = Date()) {
        write { try $0.expectPrint(printerID: printerID, file: file, until: now.addingTimeInterval(within), now: now) }
    }

    /// Sets the print's first-layer picture, or its final one.
    public func setPicture(_ file: URL, final: Bool, ofPrint key: String) {
        write { try $0.setPicture(file, final: final, of: key) }
    }

    /// Deletes the pictures of the prints that ended before `cutoff` and forgets them in the journal;
    /// the prints stay. Only files in `picturesFolder` are deleted: the journal holds no others.
    public func prunePictures(endedBefore cutoff: Date) {
        write { [self] database in
            let files = try database.takePictures(before: cutoff)
            files.forEach(deletePicture)
            if !files.isEmpty { StreamLog.log(.info, "journal: \(files.count) pictures older than \(cutoff) deleted") }
        }
    }

    /// Deletes the pictures of the prints that ended first, a print's all at once, until the files
    /// in `picturesFolder` take at most `limit` bytes, and forgets them in the journal; the prints
    /// stay. Only files in `picturesFolder` are deleted; one the journal does not name is left.
    public func prunePictures(toAtMost limit: Int64) {
        write { [self] database in
            var total = Self.bytes(in: picturesFolder)
            guard total > limit else { return }
            var deleted = 0
            for print in try database.picturedPrintsOldestFirst() {
                guard total > limit else { break }
                try database.forgetPictures(of: print.key)
                for file in print.files where isInPicturesFolder(file) {
                    total -= Self.bytes(of: file)
                    deletePicture(file)
                    deleted += 1
                }
            }
            StreamLog.log(.info, "journal: \(deleted) of the oldest pictures deleted, the pictures take more than \(limit) bytes")
        }
    }

    private func isInPicturesFolder(_ file: URL) -> Bool {
        file.standardizedFileURL.path.hasPrefix(picturesFolder.standardizedFileURL.path + "/")
    }

    /// Deletes `file` if it is in `picturesFolder`.
    private func deletePicture(_ file: URL) {
        guard isInPicturesFolder(file) else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// Hands `body` the bytes the files in `picturesFolder` take, on `executor`, counted on the
    /// journal's queue after the writes queued before (a prune included).
    public func picturesDiskUse(on executor: EventExecutor, _ body: @escaping @Sendable (Int64) -> Void) {
        queue.async {
            let bytes = Self.bytes(in: self.picturesFolder)
            executor.execute { body(bytes) }
        }
    }

    /// Calls `body` on the journal's queue after each write from now on (a print recorded, ended,
    /// its picture set): the app's History page follows the journal so. One at a time; `body` must
    /// not read the store (it runs on the queue the reads wait for): hand the news on instead.
    public func onWrite(_ body: @escaping @Sendable () -> Void) {
        queue.async { self.written = body }
    }

    /// Runs `body` on the queue with the journal (for the recorder, whose reads and writes must
    /// follow each other). A journal found damaged is set aside and `body` runs once more on the
    /// new one; nothing runs while no journal could be opened.
    func write(_ body: @escaping (JournalDatabase) throws -> Void) {
        queue.async { self.run(body) }
    }

    // MARK: Reads (synchronous, after the writes before them)

    /// The page of prints `query` asks for, newest first; none when no journal is open.
    public func prints(_ query: JournalQuery) -> [JournalPrint] {
        read([]) { try $0.prints(query) }
    }

    /// How many prints ended at or after `date`, by result (the window's "While you were away").
    public func endings(since date: Date) -> [PrintResult: Int] {
        read([:]) { try $0.endings(since: date) }
    }

    /// Each printer with a print in the journal, by name (the History page's printer filter).
    public func printers() -> [JournalPrinter] {
        read([]) { try $0.printers() }
    }

    public func print(key: String) -> JournalPrint? {
        read(nil) { try $0.print(key) }
    }

    /// The events during the print of `key`, oldest first.
    public func events(ofPrint key: String) -> [JournalEvent] {
        read([]) { try $0.events(of: key) }
    }

    public func videos(ofPrint key: String) -> [JournalVideo] {
        read([]) { try $0.videos(of: key) }
    }

    /// Every print's videos, by the print's key (for a list of many prints, in one read).
    public func videosByPrint() -> [String: [JournalVideo]] {
        read([:]) { try $0.videosByPrint() }
    }

    /// Waits until every write queued so far is done.
    public func flush() {
        queue.sync {}
    }

    /// Finishes the queued writes and closes the journal (SQLite folds its -wal file back in). The
    /// store records and reads nothing after.
    public func close() {
        queue.sync { database = nil }
    }

    // MARK: On the queue

    private func read<Result>(_ fallback: Result, _ body: (JournalDatabase) throws -> Result) -> Result {
        queue.sync {
            guard let database = current() else { return fallback }
            do {
                return try body(database)
            } catch {
                StreamLog.log(.info, "journal: a read failed: \(error)")
                return fallback
            }
        }
    }

    private func run(_ body: (JournalDatabase) throws -> Void) {
        guard let database = current() else { return }
        defer { written?() }
        do {
            try body(database)
        } catch let error as SQLiteError where error.meansUnusableFile {
            StreamLog.log(.info, "journal: \(url.path) failed: \(error)")
            setAside(reason: error.description)
            if let renewed = self.database { try? body(renewed) }
        } catch {
            StreamLog.log(.info, "journal: a write failed: \(error)")
        }
    }

    /// The open journal, opened again when the file at the path is no longer the one it opened.
    private func current() -> JournalDatabase? {
        guard let database else { return nil }
        guard FileIdentity(of: url) != database.file else { return database }
        StreamLog.log(.info, "journal: \(url.path) was replaced or set aside by another process: opened again")
        // SQLite neither folds in nor removes the -wal of a file that moved: the new journal's
        // files, of the same names, are left alone.
        self.database = nil
        open()
        return self.database
    }

    private func open() {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            database = try JournalDatabase(url: url, busyTimeout: busyTimeout)
            if case .unavailable = opened { opened = .opened }  // a journal set aside earlier stays told
        } catch let error as SQLiteError where error.meansUnusableFile {
            StreamLog.log(.info, "journal: \(url.path) cannot be used: \(error)")
            setAside(reason: error.description)
        } catch {
            StreamLog.log(.info, "journal: \(url.path) cannot be opened: \(error)")
            opened = .unavailable(reason: "\(error)")
        }
    }

    /// The sum of the sizes of the regular files in `folder` and below; none when it is missing.
    private static func bytes(in folder: URL) -> Int64 {
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: Array(sizeKeys)) else { return 0 }
        return files.reduce(0) { total, file in total + ((file as? URL).map(bytes(of:)) ?? 0) }
    }

    /// The size of `file` if it is a regular file; 0 for anything else or none.
    private static func bytes(of file: URL) -> Int64 {
        guard let values = try? file.resourceValues(forKeys: sizeKeys), values.isRegularFile == true else { return 0 }
        return Int64(values.fileSize ?? 0)
    }

    private static let sizeKeys: Set<URLResourceKey> = [.isRegularFileKey, .fileSizeKey]

    /// Renames the journal aside and starts a new one.
    private func setAside(reason: String) {
        database = nil
        do {
            let broken = try BrokenJournal.setAside(url)
            database = try JournalDatabase(url: url, busyTimeout: busyTimeout)
            opened = .setAside(brokenFile: broken, reason: reason)
            StreamLog.log(.info, "journal: set aside as \(broken.path), a new one started")
        } catch {
            StreamLog.log(.info, "journal: no new journal: \(error)")
            opened = .unavailable(reason: "\(error)")
        }
    }
}
