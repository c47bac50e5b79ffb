import Foundation
import JournalKit

/// What the History page lists: one printer's prints or all, one result or all, a job name's
/// words, and only those ended since a time (the banner of what happened while the user was away).
struct HistoryFilter: Equatable {
    var printerID: String?
    var result: PrintResult?
    var search = ""
    var endedSince: Date?

    /// Whether it lists every print.
    var isEmpty: Bool { self == HistoryFilter() }

    /// The journal's query for `limit` prints after `after` (newest first).
    func query(after: JournalPrint? = nil, limit: Int) -> JournalQuery {
        JournalQuery(endedSince: endedSince, printerID: printerID, results: result.map { [$0] },
                     search: search.isEmpty ? nil : search, limit: limit, after: after)
    }
}
