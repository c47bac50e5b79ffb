import Foundation

/// The printers heard recently, keyed by serial: a printer that moves to another address or is
/// renamed stays one entry, and one that falls silent for `expiry` is forgotten. Time is passed in
/// (monotonic seconds), so the rules are tested without waiting.
struct DiscoveryTable {
    let expiry: TimeInterval
    private var entries: [String: (printer: DiscoveredPrinter, lastHeard: TimeInterval)] = [:]

    init(expiry: TimeInterval) {
        self.expiry = expiry
    }

    /// Records an announcement heard at `time`; true when the list changed (a new printer or new details).
    /// At most this many printers are remembered: announcements from a misbehaving host can't grow
    /// the table without bound (the one heard from longest ago makes way).
    static let capacity = 64

    mutating func record(_ printer: DiscoveredPrinter, at time: TimeInterval) -> Bool {
        if entries[printer.serial] == nil, entries.count >= Self.capacity,
           let oldest = entries.min(by: { $0.value.lastHeard < $1.value.lastHeard })?.key {
            entries[oldest] = nil
        }
        let previous = entries.updateValue((printer, time), forKey: printer.serial)
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

    /// The printers by name (numbers in names compare as numbers), then serial.
    var printers: [DiscoveredPrinter] {
        entries.values.map(\.printer).sorted { a, b in
            switch a.displayName.compare(b.displayName, options: [.caseInsensitive, .numeric]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return a.serial < b.serial
            }
        }
    }
}
