import Foundation

/// Reconnect delays: exponential from `initial`, capped, spread by jitter so that several sessions
/// failing together (a farm's switch rebooting) do not come back in lockstep.
public struct Backoff: Sendable, Equatable {
    public var initial: TimeInterval = 1
    public var maximum: TimeInterval = 30
    /// Fraction of the delay by which it may be shortened or lengthened at random.
    public var jitter: Double = 0.2
    /// How long a connection must stay live before its failure starts the delays over from
    /// `initial`: a camera that sends one good frame and then garbage on every connection is backed
    /// off like one that sends nothing.
    public var healthyAfter: TimeInterval = 10

    public init(initial: TimeInterval = 1, maximum: TimeInterval = 30, jitter: Double = 0.2,
                healthyAfter: TimeInterval = 10) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
        self.healthyAfter = healthyAfter
    }

    /// Delay before reconnect `attempt` (1-based). `unit` is a random number in 0..<1.
    public func delay(attempt: Int, unit: Double = Double.random(in: 0..<1)) -> TimeInterval {
        let exponent = Double(max(0, min(attempt - 1, 30)))
        let base = min(maximum, initial * pow(2, exponent))
        let spread = base * jitter * (2 * unit - 1)
        return min(maximum, max(0, base + spread))
    }
}
