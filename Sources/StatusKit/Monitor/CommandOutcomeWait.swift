import Foundation

/// The outcome of one command sent through a `StatusMonitor`, handed from the monitor's executor
/// to a thread that waits for it (`layerwatch pause`, the start of a file a printer stored).
public final class CommandOutcomeWait: @unchecked Sendable {
    private let condition = NSCondition()
    private var outcome: CommandOutcome?

    public init() {}

    public func give(_ value: CommandOutcome) {
        condition.withLock {
            outcome = value
            condition.signal()
        }
    }

    /// The outcome; the monitor always gives one within its command timeout.
    public func wait() -> CommandOutcome {
        condition.withLock {
            while outcome == nil { condition.wait() }
            return outcome!
        }
    }
}
