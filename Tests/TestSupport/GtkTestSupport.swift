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

/// Iterates the default main context until `condition` holds or `seconds` pass; returns whether the
/// condition holds. Blocks in `g_main_context_iteration` (no sleeping): a timeout source wakes the
/// loop at the deadline.
@MainActor
public func iterateMainContext(timeout seconds: UInt32 = 5, until condition: () -> Bool) -> Bool {
    var expired = false
    let deadline = RepeatingTimer(seconds: seconds) { expired = true }
    defer { deadline.cancel() }
    while !condition() && !expired {
        g_main_context_iteration(nil, 1)
    }
    return condition()
}

/// Runs a real GMainLoop until `body` calls the quit closure it is given, or `seconds` pass.
/// Returns whether the loop was quit before the deadline.
@MainActor
public func runMainLoop(timeout seconds: UInt32 = 5, _ body: (_ quit: @escaping @Sendable () -> Void) -> Void) -> Bool {
    let loop = MainLoop()
    var timedOut = false
    let deadline = RepeatingTimer(seconds: seconds) {
        timedOut = true
        g_main_loop_quit(loop.pointer)
    }
    defer { deadline.cancel() }
    body { g_main_loop_quit(loop.pointer) }
    g_main_loop_run(loop.pointer)
    return !timedOut
}

/// A GMainLoop on the default context, unreffed with its Swift owner; Sendable because
/// g_main_loop_quit is thread-safe.
public final class MainLoop: @unchecked Sendable {
    public let pointer: OpaquePointer = g_main_loop_new(nil, 0)
    public init() {}
    deinit { g_main_loop_unref(pointer) }
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
