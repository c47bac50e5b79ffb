import Foundation

/// Sets a journal that cannot be used aside, never deleting it: `journal.sqlite3` becomes
/// `journal.sqlite3.broken-<time>` and its `-wal` and `-shm` files `…broken-<time>-wal` and `-shm`,
/// the names SQLite looks for beside it, so the set-aside file opens with what it last wrote.
enum BrokenJournal {
    /// Renames the journal at `url` and its companions; the set-aside journal's name.
    static func setAside(_ url: URL, at now: Date = Date()) throws -> URL {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: now)  // 20261205T164820Z
        var broken = URL(fileURLWithPath: url.path + ".broken-" + stamp)
        var attempt = 1
        while FileManager.default.fileExists(atPath: broken.path) {
            attempt += 1
            broken = URL(fileURLWithPath: url.path + ".broken-" + stamp + "-\(attempt)")
        }
        let files = FileManager.default
        if files.fileExists(atPath: url.path) { try files.moveItem(at: url, to: broken) }
        for suffix in ["-wal", "-shm"] where files.fileExists(atPath: url.path + suffix) {
            try files.moveItem(atPath: url.path + suffix, toPath: broken.path + suffix)
        }
        return broken
    }
}
