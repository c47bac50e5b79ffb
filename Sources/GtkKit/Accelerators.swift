import CGtk

/// Binds keyboard shortcuts (GTK accelerator syntax: "<Control>s", "F11") to an action of the
/// application or its windows ("win.snapshot").
@MainActor
public func setAccelerators(_ application: some GObjectPointer, _ action: String, _ accelerators: [String]) {
    withCStringArray(accelerators) { gtk_application_set_accels_for_action(gcast(application), action, $0) }
}
