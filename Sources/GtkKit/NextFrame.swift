import CGtk

/// Runs `body` once, in the update phase of `widget`'s next frame (a tick callback): after the
/// layout running now, before the next one. What a layout decides (where a child went) can be
/// acted on there with changes a size-allocate pass must not make (a scrolled position, which
/// queues an allocation); the next frame's layout then follows them before anything is drawn
/// again. Nothing runs if the widget is unrealized first.
@MainActor
public func onNextFrame(of widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
    gtk_widget_add_tick_callback(widget, runOnceAtTick, ClosureBox<@MainActor () -> Void>(body).retainedPointer(),
                                 closureBoxDestroyNotify)
}

private let runOnceAtTick: GtkTickCallback = { _, _, data in
    nonisolated(unsafe) let body = ClosureBox<@MainActor () -> Void>.value(at: data)
    MainActor.assumeIsolated { body() }
    return gboolean(G_SOURCE_REMOVE)
}

/// Runs `body` once, after `widget`'s frame clock next paints (its `after-paint`): what the frame
/// being drawn now shows is on its way to the screen then. Nothing runs for an unrealized widget.
@MainActor
public func afterNextPaint(of widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
    guard let clock = gtk_widget_get_frame_clock(widget) else { return }
    var handler: gulong = 0
    handler = connectSignal(clock, "after-paint") {
        disconnectSignal(clock, handler)
        body()
    }
    gtk_widget_queue_draw(widget)
}
