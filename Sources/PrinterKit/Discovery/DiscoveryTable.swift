import Foundation

/// The printers heard recently, keyed by family and identifier (`DiscoveredPrinter.key`): a printer
/// that is renamed stays one entry, and one that falls silent for `expiry` is forgotten. A key keeps
/// the address it was first heard from: another host announcing the same key is ignored until the first has been silent for
/// `addressHold` (then the printer is taken to have moved). Time is passed in (monotonic seconds),
/// so the rules are tested without waiting.
struct DiscoveryTable {
    /// At most this many printers are remembered: announcements from a misbehaving host can't grow
    /// the table without bound.
    static let capacity = 64

    let expiry: TimeInterval
    let addressHold: TimeInterval
    /// By `DiscoveredPrinter.key`.
    private var entries: [String: (printer: DiscoveredPrinter, lastHeard: TimeInterval)] = [:]

    init(expiry: TimeInterval, addressHold: TimeInterval) {
        self.expiry = expiry
        self.addressHold = addressHold
    }

    /// Records an announcement heard at `time`; true when the list changed (a new printer or new
    /// details). When the table is full, a new key makes the host holding the most entries give
    /// up the one it announced longest ago, so a host flooding fake serials only displaces its own.
    mutating func record(_ printer: DiscoveredPrinter, at time: TimeInterval) -> Bool {
        if let known = entries[printer.key], known.printer.address != printer.address,
           time - known.lastHeard < addressHold {
            return false
        }
        if entries[printer.key] == nil, entries.count >= Self.capacity, let victim = evictionCandidate() {
            entries[victim] = nil
        }
        let previous = entries.updateValue((printer, time), forKey: printer.key)
        return previous?.printer != printer
    }

    /// Forgets printers not heard from for `expiry` by `time`; true when any were forgotten.
    mutating func expire(at time: TimeInterval) -> Bool {
        let before = entries.count
        entries = entries.filter { time - $0.value.lastHeard < expiry }
        return entries.count != before
    }

    /// When the next printer is due to be forgotten, if any is known.
    var nextExpiry: TimeInterval? {
        entries.values.map(\.lastHeard).min().map { $0 + expiry }
    }

    /// The printers by name (numbers in names compare as numbers), then family and identifier.
    var printers: [DiscoveredPrinter] {
        entries.values.map(\.printer).sorted { a, b in
            switch a.displayName.compare(b.displayName, options: [.caseInsensitive, .numeric]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return a.key < b.key
            }
        }
    }

    /// The key the host with the most entries heard longest ago.
    private func evictionCandidate() -> String? {
        let byAddress = Dictionary(grouping: entries, by: { $0.value.printer.address })
        return byAddress.values.max { $0.count < $1.count }?
            .min { $0.value.lastHeard < $1.value.lastHeard }?.key
    }
}
