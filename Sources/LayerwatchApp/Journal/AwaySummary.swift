import JournalKit
import StreamKit

/// What ended while the user was away, in the banner's words: "While you were away: 3 finished,
/// 1 failed" — only the results that occurred, finished, failed, then cancelled.
enum AwaySummary {
    /// The sentence for `endings` (prints by result), or nil when none ended.
    static func text(_ endings: [PrintResult: Int]) -> String? {
        let parts = [PrintResult.finished, .failed, .cancelled].compactMap { result -> String? in
            guard let count = endings[result], count > 0 else { return nil }
            return String(format: words(result, count), count)
        }
        guard !parts.isEmpty else { return nil }
        return String(format: tr("While you were away: %@"), parts.joined(separator: tr(", ")))
    }

    private static func words(_ result: PrintResult, _ count: Int) -> String {
        switch result {
        case .finished: trPlural("%ld finished", "%ld finished", count)
        case .failed: trPlural("%ld failed", "%ld failed", count)
        case .cancelled: trPlural("%ld cancelled", "%ld cancelled", count)
        case .underway: ""
        }
    }
}
