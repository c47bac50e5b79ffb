import CGtk

/// The windows of a GtkApplication (dialogs, About, the shortcuts window…), listed at once so that
/// destroying them one by one does not walk a list that changes.
@MainActor
public func applicationWindows(of application: OpaquePointer) -> [UnsafeMutablePointer<GtkWindow>] {
    var windows: [UnsafeMutablePointer<GtkWindow>] = []
    var link = gtk_application_get_windows(gcast(application))
    while let current = link {
        if let window = current.pointee.data { windows.append(window.assumingMemoryBound(to: GtkWindow.self)) }
        link = current.pointee.next
    }
    return windows
}
