import CFFmpeg
import Foundation

/// What FFmpeg's `interrupt_callback` consults while it blocks in network I/O: a stop request from
/// `StreamSession.stop()` and a deadline (connect or stall). FFmpeg polls it about every 100 ms, which
/// is what lets `stop()` return within about one poll period and a silent host fail on time. The session thread's
/// waits (backoff, snapshot interval) sleep on it too, so a stop wakes them at once.
final class InterruptGate: Interrupting, @unchecked Sendable {
    private let condition = NSCondition()
    private var cancelled = false
    private var deadline: UInt64 = .max
    private var expired = false

    /// True once `cancel()` was called; never reset.
    var isCancelled: Bool { condition.withLock { cancelled } }

    /// True when the last interruption came from the deadline, not from a stop request.
    var deadlineExpired: Bool { condition.withLock { expired } }

    /// Interrupts FFmpeg's current call and any wait, for good.
    func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }

    /// Arms the deadline `seconds` from now and clears a previous expiry (a new connection begins).
    func arm(seconds: TimeInterval) {
        let now = DispatchTime.now().uptimeNanoseconds
        condition.withLock {
            deadline = now + UInt64(max(0, seconds) * 1e9)
            expired = false
        }
    }

    /// Pushes the deadline to `seconds` from now (nil: none) unless it has already expired: once a
    /// stall was declared, a packet FFmpeg flushes from its queues afterwards must not revive it.
    func extend(seconds: TimeInterval?) {
        let now = DispatchTime.now().uptimeNanoseconds
        condition.withLock {
            guard !expired else { return }
            deadline = seconds.map { now + UInt64(max(0, $0) * 1e9) } ?? .max
        }
    }

    /// Sleeps up to `seconds`; false when cancelled meanwhile.
    func wait(seconds: TimeInterval) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while !cancelled && Date() < end { _ = condition.wait(until: end) }
            return !cancelled
        }
    }

    /// Called by FFmpeg: true aborts the blocking operation.
    func shouldInterrupt() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return condition.withLock {
            if cancelled { return true }
            if now >= deadline { expired = true }
            return expired
        }
    }
}
