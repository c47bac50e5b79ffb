import CGtk

/// Carries a Swift value through a C `gpointer` user-data slot. GLib holds the retain taken by
/// `retainedPointer()` and drops it through one of the notifies below, so the value lives
/// exactly as long as the signal handler or source that GLib keeps it for.
final class ClosureBox<Value> {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// A +1 pointer for GLib to own; balanced by one of the notifies (or `releaseClosureBox`).
    func retainedPointer() -> gpointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// The value behind a pointer made by `retainedPointer()`, without touching its retain count.
    static func value(at data: gpointer?) -> Value {
        Unmanaged<ClosureBox>.fromOpaque(data!).takeUnretainedValue().value
    }
}

/// Drops the retain taken by `ClosureBox.retainedPointer()`, whatever the box's value type.
func releaseClosureBox(_ data: gpointer?) {
    Unmanaged<AnyObject>.fromOpaque(data!).release()
}

/// GLib destroy notify for sources (`g_idle_add_full` and friends) whose data is a ClosureBox.
let closureBoxDestroyNotify: GDestroyNotify = { data in releaseClosureBox(data) }

/// GLib closure notify for signal handlers (`g_signal_connect_data`) whose data is a ClosureBox.
let closureBoxClosureNotify: GClosureNotify = { data, _ in releaseClosureBox(data) }
