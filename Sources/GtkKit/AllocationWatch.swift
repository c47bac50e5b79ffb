import CGtk

/// Tells its owner the size, in device pixels, at which an area is shown: its allocation times the
/// display's scale factor, once per change. GTK 4 has no size-allocate signal, so an empty
/// GtkDrawingArea is layered over the area (an overlay child that draws nothing and takes no input):
/// it is given the area's allocation and emits `resize`. The owner learns the size from inside the
/// size-allocate pass: keep `onChange` cheap and change no widget's size from it.
@MainActor
public final class AllocationWatch {
    /// The layer to add over the watched area (`gtk_overlay_add_overlay`).
    public var widget: UnsafeMutablePointer<GtkWidget> { area.pointer }
    /// Called with each new size in device pixels.
    public var onChange: ((_ width: Int, _ height: Int) -> Void)?

    private let area = GObjectRef(adopting: gtk_drawing_area_new()!)
    private var logicalSize: (width: Int32, height: Int32)?
    /// The size last reported, in device pixels.
    private var size: (width: Int, height: Int)?

    public init() {
        gtk_widget_set_can_target(widget, false.gboolean)
        gtk_widget_set_can_focus(widget, false.gboolean)
        connectSizeSignal(widget, "resize") { [weak self] width, height in
            self?.logicalSize = (width, height)
            self?.report()
        }
        connectNotify(widget, "scale-factor") { [weak self] in self?.report() }
    }

    private func report() {
        guard let logicalSize else { return }
        let scale = Int(gtk_widget_get_scale_factor(widget))
        let newSize = (width: Int(logicalSize.width) * scale, height: Int(logicalSize.height) * scale)
        if let size, size == newSize { return }
        size = newSize
        onChange?(newSize.width, newSize.height)
    }
}
