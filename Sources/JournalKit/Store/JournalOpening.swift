import Foundation

/// What opening the journal came to, for the banner that says a journal was set aside.
public enum JournalOpening: Equatable, Sendable {
    /// The journal is open (a new one if there was none).
    case opened
    /// The journal at the path was no usable database (`reason`, SQLite's words for the log): it was
    /// renamed to `brokenFile` (its -wal and -shm beside it) and a new one started.
    case setAside(brokenFile: URL, reason: String)
    /// No journal could be opened, not even a new one (a full disk, a folder that cannot be
    /// written): prints are not recorded in this run.
    case unavailable(reason: String)
}
