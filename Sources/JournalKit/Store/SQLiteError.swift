import CSQLite

/// A failed SQLite call: its result code and SQLite's words (for the log, never for the user).
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    /// The primary result code (`SQLITE_BUSY` of `SQLITE_BUSY_SNAPSHOT`).
    var primary: Int32 { code & 0xff }

    /// Whether the file is no usable journal: not a database, damaged, held by another process
    /// past the busy timeout, or impossible to open or write (disk full). Such a file is set aside.
    var meansUnusableFile: Bool {
        [SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY]
            .contains(primary)
    }

    var description: String { "SQLite \(code): \(message)" }
}
