import Foundation

/// Waits for a condition that another thread makes true, polling a thread-safe getter. Used where a
/// state can be awaited; never a bare sleep.
public func waitUntil(timeout: TimeInterval = 5, poll: TimeInterval = 0.01, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: poll)
    }
    return condition()
}
