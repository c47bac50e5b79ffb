import Foundation

/// Which prints to read, newest first, one page at a time: a day range, a printer, results, and
/// words the job's name contains. Pages follow each other by key (`after`, the last print of the
/// page before), so the thousandth page is as quick as the first.
public struct JournalQuery: Sendable {
    /// Prints that started in this interval.
    public var started: DateInterval?
    /// Prints that ended at or after this time (those still under way never).
    public var endedSince: Date?
    public var printerID: String?
    /// Prints with one of these results; all when nil.
    public var results: Set<PrintResult>?
    /// Words the job's name contains (SQLite's LIKE: ASCII letters in either case).
    public var search: String?
    public var limit: Int
    /// The page after this print (the last one of the previous page).
    public var after: JournalPrint?

    public init(started: DateInterval? = nil, endedSince: Date? = nil, printerID: String? = nil, results: Set<PrintResult>? = nil,
                search: String? = nil, limit: Int = 100, after: JournalPrint? = nil) {
        self.started = started
        self.endedSince = endedSince
        self.printerID = printerID
        self.results = results
        self.search = search
        self.limit = limit
        self.after = after
    }
}
