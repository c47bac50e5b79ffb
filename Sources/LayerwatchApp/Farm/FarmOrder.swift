import Foundation
import StatusKit

/// The farm view's "needs attention" order, kept free of GTK: failed and paused printers first,
/// then those in trouble (their status or camera failing: a rejected code, offline, reconnecting),
/// then those printing (the print that ends soonest first), then finished prints (a plate to
/// clear), then idle printers, then those without status; the printers' own order within each
/// group. Also which prints are about to finish.
enum FarmOrder {
    /// What the order needs to know of one printer.
    struct Entry: Equatable {
        let id: UUID
        /// The printer's state while its status is live; nil without one.
        let state: PrinterStatus.State?
        /// Seconds left of the print, as the printer last said.
        let timeLeft: TimeInterval?
        /// Its status or its camera is failing: a rejected code, offline, reconnecting.
        var inTrouble = false
        /// The printer reports a grave alert (`BambuAlert.isGrave`): its print may not finish.
        var alerted = false
    }

    /// A print with at most this many seconds left is marked as finishing.
    static let finishingWithin: TimeInterval = 10 * 60

    /// `entries` (in the user's order) with those needing attention first.
    static func attentionFirst(_ entries: [Entry]) -> [UUID] {
        entries.enumerated()
            .sorted { a, b in
                let (left, right) = (rank(a.element), rank(b.element))
                if left.group != right.group { return left.group < right.group }
                if left.timeLeft != right.timeLeft { return left.timeLeft < right.timeLeft }
                return a.offset < b.offset
            }
            .map(\.element.id)
    }

    /// Whether the entry's print ends within `finishingWithin` and no grave alert puts that in doubt.
    static func isFinishing(_ entry: Entry) -> Bool {
        entry.state == .printing && !entry.alerted && (entry.timeLeft.map { $0 <= finishingWithin } ?? false)
    }

    /// Whether the entry's printer waits for someone: a failed or paused print.
    static func needsAttention(_ state: PrinterStatus.State?) -> Bool {
        state == .failed || state == .paused
    }

    /// Whether the entry's printer is in trouble (and no failed or paused print says more).
    static func isInTrouble(_ entry: Entry) -> Bool {
        (entry.inTrouble || entry.state == .offline) && !needsAttention(entry.state)
    }

    private static func rank(_ entry: Entry) -> (group: Int, timeLeft: TimeInterval) {
        if isInTrouble(entry) { return (1, 0) }
        switch entry.state {
        case .failed?, .paused?: return (0, 0)
        case .printing?, .preparing?: return (2, entry.timeLeft ?? .infinity)
        case .finished?, .cancelled?: return (3, 0)
        case .idle?: return (4, 0)
        case .offline?, nil: return (5, 0)
        }
    }
}
