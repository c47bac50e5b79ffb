import CGtk
import GtkKit
import XCTest

/// Process-wide GTK setup: gtk_init may run only once per process. XCTest calls setUp on the main
/// thread, which is what GTK needs.
public enum GtkTestEnvironment {
    public static func prepare() {
        _ = prepared
    }

    private static let prepared: Void = {
        gtk_init()
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
