import CGtk

/// A GLib timeout that calls a closure every `interval` seconds on the main loop until cancelled or
/// released: countdowns ("Reconnecting in 3 s") and once-a-second stats refresh use it. Tied to
/// Swift ownership, so a view that goes away takes its timer with it.
@MainActor
public final class RepeatingTimer {
    private var sourceID: guint = 0

    /// Starts ticking; the first tick comes after one interval.
    public init(seconds interval: UInt32, _ tick: @escaping @MainActor () -> Void) {
        let box = ClosureBox<@MainActor () -> Void>(tick)
        sourceID = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, interval, { data in
            nonisolated(unsafe) let tick = ClosureBox<@MainActor () -> Void>.value(at: data)
            MainActor.assumeIsolated { tick() }
            return LW_G_SOURCE_CONTINUE
        }, box.retainedPointer(), closureBoxDestroyNotify)
    }

    /// Stops the ticks; later calls do nothing.
    public func cancel() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }

    isolated deinit {
        cancel()
    }
}
