import CGtk

/// Binds keyboard shortcuts (GTK accelerator syntax: "<Control>s", "F11") to an action of the
/// application or its windows ("win.snapshot").
@MainActor
public func setAccelerators(_ application: some GObjectPointer, _ action: String, _ accelerators: [String]) {
    let cStrings = accelerators.map { strdup($0) }
    defer { cStrings.forEach { free($0) } }
    var array: [UnsafePointer<CChar>?] = cStrings.map { UnsafePointer($0) } + [nil]
    array.withUnsafeMutableBufferPointer { buffer in
        gtk_application_set_accels_for_action(gcast(application), action, buffer.baseAddress)
    }
}
