import Foundation
import PrinterKit

/// Collects the lists a discovery listener delivers, so a test can wait for one that matches.
final class DiscoveryUpdateLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var updates: [[DiscoveredPrinter]] = []

    var all: [[DiscoveredPrinter]] { condition.withLock { updates } }
    var latest: [DiscoveredPrinter]? { condition.withLock { updates.last } }

    func append(_ printers: [DiscoveredPrinter]) {
        condition.withLock {
            updates.append(printers)
            condition.broadcast()
        }
    }

    /// The latest update once it matches, or nil after `timeout`.
    func wait(timeout: TimeInterval = 5, until matches: ([DiscoveredPrinter]) -> Bool) -> [DiscoveredPrinter]? {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while true {
                if let latest = updates.last, matches(latest) { return latest }
                guard condition.wait(until: deadline) else { return nil }
            }
        }
    }
}
