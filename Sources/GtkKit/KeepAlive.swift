import CGtk

/// Keeps `object` alive until `widget` is destroyed: the ownership of a controller whose only owner
/// is the window it runs (a dialog's, a mini window's, the main window's). The widget's destroy
/// handler holds the object; GLib drops the handler, and with it the object, when the widget goes.
@MainActor
public func keepAlive(_ object: AnyObject, untilDestroyed widget: some GObjectPointer) {
    connectSignal(widget, "destroy") { withExtendedLifetime(object) {} }
}
