import Foundation
import JournalKit

/// The print journal of the app `startApp(in: directory)` starts: the file in its state directory.
func appJournalFile(in directory: URL) -> URL {
    directory.appendingPathComponent("state/journal.sqlite3")
}

/// Opens the journal of the app that will start on `directory`, for `fill` to write what that
/// app finds there (as an earlier run of it left it), and closes it.
func fillAppJournal<T>(in directory: URL, _ fill: (JournalStore) throws -> T) rethrows -> T {
    let journal = JournalStore(url: appJournalFile(in: directory))
    defer { journal.close() }
    return try fill(journal)
}
