import CGtk
import GtkKit
import XCTest

/// Process-wide GTK setup: gtk_init may run only once per process, and every test needs the
/// dispatch bridge in place before it iterates the main context. XCTest calls setUp on the main
/// thread, which is what GTK and the bridge need.
public enum GtkTestEnvironment {
    public static func prepare() {
        _ = prepared
    }

    private static let prepared: Void = {
        gtk_init()
        MainActor.assumeIsolated { DispatchMainQueueBridge.install() }
    }()
}

/// A flag a GLib callback can set through a retained `gpointer`.
public final class Flag {
    public var isSet = false
    public init() {}
}

/// Iterates the default main context until `condition` holds or `seconds` pass; returns whether the
/// condition holds. Blocks in `g_main_context_iteration` (no sleeping): a timeout source wakes the
/// loop at the deadline.
@MainActor
public func iterateMainContext(timeout seconds: UInt32 = 5, until condition: () -> Bool) -> Bool {
    let expired = Flag()
    let timer = g_timeout_add_full(G_PRIORITY_DEFAULT, seconds * 1000, { data in
        Unmanaged<Flag>.fromOpaque(data!).takeUnretainedValue().isSet = true
        return gboolean(G_SOURCE_REMOVE)
    }, Unmanaged.passRetained(expired).toOpaque(), { data in
        Unmanaged<Flag>.fromOpaque(data!).release()
    })
    while !condition() && !expired.isSet {
        g_main_context_iteration(nil, 1)
    }
    if !expired.isSet {
        g_source_remove(timer)
    }
    return condition()
}

/// Runs a real GMainLoop until `body` calls the quit closure it is given, or `seconds` pass.
/// Returns whether the loop was quit before the deadline.
@MainActor
public func runMainLoop(timeout seconds: UInt32 = 5, _ body: (_ quit: @escaping @Sendable () -> Void) -> Void) -> Bool {
    let loop = MainLoop()
    let timedOut = Flag()
    let timer = g_timeout_add_full(G_PRIORITY_DEFAULT, seconds * 1000, { data in
        let (loop, timedOut) = Unmanaged<DeadlineBox>.fromOpaque(data!).takeUnretainedValue().value
        timedOut.isSet = true
        g_main_loop_quit(loop.pointer)
        return gboolean(G_SOURCE_REMOVE)
    }, Unmanaged.passRetained(DeadlineBox((loop, timedOut))).toOpaque(), { data in
        Unmanaged<DeadlineBox>.fromOpaque(data!).release()
    })
    body { g_main_loop_quit(loop.pointer) }
    g_main_loop_run(loop.pointer)
    if !timedOut.isSet {
        g_source_remove(timer)
    }
    return !timedOut.isSet
}

/// A GMainLoop on the default context, unreffed with its Swift owner; Sendable because
/// g_main_loop_quit is thread-safe.
public final class MainLoop: @unchecked Sendable {
    public let pointer: OpaquePointer = g_main_loop_new(nil, 0)
    public init() {}
    deinit { g_main_loop_unref(pointer) }
}

private final class DeadlineBox {
    let value: (MainLoop, Flag)
    init(_ value: (MainLoop, Flag)) { self.value = value }
}

/// Observes a GObject's disposal with g_object_weak_ref (fired when the last reference goes).
public final class DisposalWatch {
    public private(set) var isDisposed = false

    public init(_ object: some GObjectPointer) {
        g_object_weak_ref(gcast(object), { data, _ in
            Unmanaged<DisposalWatch>.fromOpaque(data!).takeRetainedValue().isDisposed = true
        }, Unmanaged.passRetained(self).toOpaque())
    }
}

/// An object whose deallocation a test can observe through a weak reference; signal closures
/// capture one to show when GLib frees their box.
public final class Sentinel {
    public init() {}
}
