import CGtk

/// Makes `draw` the drawing function of GtkDrawingArea `area` (handed the cairo context and the
/// area's size), for as long as the area lives.
@MainActor
public func setDrawFunction(_ area: UnsafeMutablePointer<GtkWidget>,
                            _ draw: @escaping @MainActor (_ cairo: OpaquePointer, _ width: Int32, _ height: Int32) -> Void) {
    let thunk: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { _, cairo, width, height, data in
        nonisolated(unsafe) let draw = ClosureBox<@MainActor (OpaquePointer, Int32, Int32) -> Void>.value(at: data)
        nonisolated(unsafe) let context = cairo
        guard let context else { return }
        MainActor.assumeIsolated { draw(context, width, height) }
    }
    gtk_drawing_area_set_draw_func(gcast(area), thunk, ClosureBox(draw).retainedPointer(), closureBoxDestroyNotify)
}
