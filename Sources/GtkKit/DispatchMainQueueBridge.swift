import CGtk
import Glibc

/// Makes `DispatchQueue.main` and `@MainActor` work run inside the GLib main loop. GTK owns the
/// main thread's loop (`g_application_run`, `GMainLoop`), so libdispatch's main queue would never
/// drain; this watches libdispatch's main-queue eventfd from the default GMainContext and drains
/// the queue whenever it becomes readable.
public enum DispatchMainQueueBridge {
    @MainActor private static var sourceID: guint = 0

    /// Adds the watch to the default main context; call once on the main thread before running the
    /// loop. Later calls do nothing.
    @MainActor
    public static func install() {
        guard sourceID == 0 else { return }
        sourceID = g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, drainMainQueue, nil)
    }
}

/// Resets the eventfd (non-blocking, so a spurious wakeup costs nothing), then runs the queued work.
private let drainMainQueue: GUnixFDSourceFunc = { fd, _, _ in
    var counter: UInt64 = 0
    _ = read(fd, &counter, MemoryLayout<UInt64>.size)
    _dispatch_main_queue_callback_4CF(nil)
    return LW_G_SOURCE_CONTINUE
}
