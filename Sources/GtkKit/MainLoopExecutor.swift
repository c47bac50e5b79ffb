import CGtk

/// "Run this on the GLib main loop", as an object background code can hold without knowing GTK:
/// each `execute` adds one idle source to the default main context, which is thread-safe and wakes
/// the loop. Work runs on the main thread, in submission order for equal priorities. Its shape
/// matches StreamKit's `EventExecutor`, so CameraKit can declare that conformance in one line.
public final class MainLoopExecutor: Sendable {
    /// The executor at `G_PRIORITY_DEFAULT`, for code that does not care about priority.
    public static let main = MainLoopExecutor()

    /// GLib source priority of the idles; lower runs earlier (`G_PRIORITY_DEFAULT` is 0, GTK
    /// redraws at 120, `G_PRIORITY_DEFAULT_IDLE` is 200).
    public let priority: Int32

    public init(priority: Int32 = G_PRIORITY_DEFAULT) {
        self.priority = priority
    }

    /// Queues `work` for the main loop; callable from any thread. The work runs on the main thread,
    /// so it may use `MainActor.assumeIsolated`.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        g_idle_add_full(priority, runOnce, ClosureBox<Work>(work).retainedPointer(), closureBoxDestroyNotify)
    }

    /// Queues main-actor `work` for the main loop: the one hop from a background thread (a probe, a
    /// file write, a discovery socket) back to UI code.
    public func runOnMainActor(_ work: @escaping @Sendable @MainActor () -> Void) {
        execute { MainActor.assumeIsolated(work) }
    }
}

private typealias Work = @Sendable () -> Void

private let runOnce: GSourceFunc = { data in
    ClosureBox<Work>.value(at: data)()
    return gboolean(G_SOURCE_REMOVE)
}
