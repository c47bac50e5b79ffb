import Foundation

/// The progress reports an upload or a sending gave, collected from the thread that ran it.
final class ProgressLog<Report: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [Report] = []

    @Sendable func add(_ report: Report) { lock.withLock { reports.append(report) } }

    var all: [Report] { lock.withLock { reports } }
}
