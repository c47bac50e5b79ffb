import Foundation

/// The newest value waiting for a background writer (a config or a ledger saved off the main
/// loop): each new value replaces the one still waiting, so a burst of changes costs one write of
/// the last, and the writer is queued only when nothing was waiting.
public final class NewestPending<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: Value?

    public init() {}

    /// Stores `value`; true when a write must be queued (none was waiting).
    public func replace(with value: Value) -> Bool {
        lock.withLock {
            defer { waiting = value }
            return waiting == nil
        }
    }

    /// The value to write now, if any; the slot is then empty.
    public func take() -> Value? {
        lock.withLock {
            defer { waiting = nil }
            return waiting
        }
    }
}
