import CGtk
import CLayerwatch

/// A GLib timeout that calls a closure at a fixed interval on the main loop until cancelled or
/// released: countdowns ("Reconnecting in 3 s"), once-a-second stats refresh, and tests' frame
/// ticks and deadlines use it. Tied to Swift ownership, so a view that goes away takes its timer
/// with it.
@MainActor
public final class RepeatingTimer {
    private var sourceID: guint = 0

    /// Ticks every `interval` seconds (GLib groups such timers to save wake-ups); the first tick
    /// comes after one interval.
    public init(seconds interval: UInt32, _ tick: @escaping @MainActor () -> Void) {
        sourceID = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, interval, Self.fire,
                                              ClosureBox(tick).retainedPointer(), closureBoxDestroyNotify)
    }

    /// Ticks every `interval` milliseconds.
    public init(milliseconds interval: UInt32, _ tick: @escaping @MainActor () -> Void) {
        sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, interval, Self.fire,
                                      ClosureBox(tick).retainedPointer(), closureBoxDestroyNotify)
    }

    private static let fire: GSourceFunc = { data in
        nonisolated(unsafe) let tick = ClosureBox<@MainActor () -> Void>.value(at: data)
        MainActor.assumeIsolated { tick() }
        return LW_G_SOURCE_CONTINUE
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
