import CGtk

// One function per handler shape GtkKit connects. Each carries its thunk: the C function GLib
// calls, which forwards to the Swift closure in its ClosureBox. GTK emits signals on the main
// thread, hence `assumeIsolated`, and the values handed into it never leave that thread
// (`nonisolated(unsafe)`).

/// Connects `handler` to a signal without arguments (`clicked`, `toggled`, `destroy`).
/// Returns the handler id (0 if the object has no such signal; GLib then logs a warning).
@MainActor @discardableResult
public func connectSignal(_ instance: some GObjectPointer, _ signal: String,
                          _ handler: @escaping @MainActor () -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor () -> Void>.value(at: data)
        MainActor.assumeIsolated { handler() }
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a signal with one pointer argument (a dialog's `response` passes the
/// response id).
@MainActor @discardableResult
public func connectSignal(_ instance: some GObjectPointer, _ signal: String,
                          _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
    connect(instance, signal, handler, through: pointerArgumentThunk)
}

/// Connects `handler` to `notify::property`, emitted when the object's `property` changes
/// (`fullscreened`, `selected-page`, `contains-pointer`).
@MainActor @discardableResult
public func connectNotify(_ instance: some GObjectPointer, _ property: String,
                          _ handler: @escaping @MainActor () -> Void) -> gulong {
    let ignoringParamSpec: @MainActor (UnsafeMutableRawPointer?) -> Void = { _ in handler() }
    return connect(instance, "notify::\(property)", ignoringParamSpec, through: pointerArgumentThunk)
}

/// The thunk of handlers taking one pointer argument.
private let pointerArgumentThunk: GCallback = {
    let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?) -> Void>.value(at: data)
        nonisolated(unsafe) let pointer = argument
        MainActor.assumeIsolated { handler(pointer) }
    }
    return unsafeBitCast(thunk, to: GCallback.self)
}()

/// Connects `handler` to a signal with one int argument (GtkNativeDialog's `response` passes the
/// response id). A separate name, because a trailing closure could not tell this shape from the
/// pointer one; `connectIntSignal` is the shape whose handlers return an int.
@MainActor @discardableResult
public func connectInt32Signal(_ instance: some GObjectPointer, _ signal: String,
                               _ handler: @escaping @MainActor (Int32) -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, number, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (Int32) -> Void>.value(at: data)
        MainActor.assumeIsolated { handler(number) }
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a signal with a pointer and an int argument (AdwTabView's
/// `page-reordered` passes the page and its new position).
@MainActor @discardableResult
public func connectSignal(_ instance: some GObjectPointer, _ signal: String,
                          _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, Int32) -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, gpointer?, gint, gpointer?) -> Void = { _, argument, number, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?, Int32) -> Void>.value(at: data)
        nonisolated(unsafe) let pointer = argument
        MainActor.assumeIsolated { handler(pointer, number) }
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a signal with two int arguments (GtkDrawingArea's `resize` passes the new
/// width and height).
@MainActor @discardableResult
public func connectSizeSignal(_ instance: some GObjectPointer, _ signal: String,
                              _ handler: @escaping @MainActor (_ width: Int32, _ height: Int32) -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, gint, gint, gpointer?) -> Void = { _, width, height, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (Int32, Int32) -> Void>.value(at: data)
        MainActor.assumeIsolated { handler(width, height) }
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a click gesture's `pressed` or `released` (the press count and where).
@MainActor @discardableResult
public func connectClickSignal(_ instance: some GObjectPointer, _ signal: String,
                               _ handler: @escaping @MainActor (_ presses: Int32, _ x: Double, _ y: Double) -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void = { _, presses, x, y, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (Int32, Double, Double) -> Void>.value(at: data)
        MainActor.assumeIsolated { handler(presses, x, y) }
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a signal with two double arguments: a point (a motion controller's
/// `motion`, a drag gesture's `drag-begin`) or an offset (`drag-update`).
@MainActor @discardableResult
public func connectPointSignal(_ instance: some GObjectPointer, _ signal: String,
                               _ handler: @escaping @MainActor (_ x: Double, _ y: Double) -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void = { _, x, y, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (Double, Double) -> Void>.value(at: data)
        MainActor.assumeIsolated { handler(x, y) }
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a scroll controller's `scroll` (the deltas); returning true stops the
/// event there.
@MainActor @discardableResult
public func connectScrollSignal(_ controller: some GObjectPointer,
                                _ handler: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Bool) -> gulong {
    let thunk: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> gboolean = { _, dx, dy, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (Double, Double) -> Bool>.value(at: data)
        return MainActor.assumeIsolated { handler(dx, dy) }.gboolean
    }
    return connect(controller, "scroll", handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a signal with one double argument (a zoom gesture's `scale-changed`).
@MainActor @discardableResult
public func connectDoubleSignal(_ instance: some GObjectPointer, _ signal: String,
                                _ handler: @escaping @MainActor (Double) -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, gdouble, gpointer?) -> Void = { _, value, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (Double) -> Void>.value(at: data)
        MainActor.assumeIsolated { handler(value) }
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a key controller's `key-pressed` (the key value and the modifier mask);
/// returning true stops the key there.
@MainActor @discardableResult
public func connectKeySignal(_ controller: some GObjectPointer,
                             _ handler: @escaping @MainActor (_ key: guint, _ modifiers: guint) -> Bool) -> gulong {
    let thunk: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, key, _, modifiers, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (guint, guint) -> Bool>.value(at: data)
        return MainActor.assumeIsolated { handler(key, modifiers.rawValue) }.gboolean
    }
    return connect(controller, "key-pressed", handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a signal without arguments whose handlers return a gboolean
/// (`close-request`: returning true stops the window from closing). A separate name, because a
/// trailing closure could not tell this shape from the no-argument one.
@MainActor @discardableResult
public func connectBoolSignal(_ instance: some GObjectPointer, _ signal: String,
                              _ handler: @escaping @MainActor () -> Bool) -> gulong {
    let thunk: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor () -> Bool>.value(at: data)
        return MainActor.assumeIsolated { handler() }.gboolean
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a signal with one pointer argument whose handlers return a gboolean
/// (AdwTabView's `close-page` passes the page; returning true means "I will answer later").
@MainActor @discardableResult
public func connectBoolSignal(_ instance: some GObjectPointer, _ signal: String,
                              _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool) -> gulong {
    let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, argument, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?) -> Bool>.value(at: data)
        nonisolated(unsafe) let pointer = argument
        return MainActor.assumeIsolated { handler(pointer) }.gboolean
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a signal with one pointer argument whose handlers return an int
/// (GApplication's `command-line` passes the command line; the result is the exit status).
@MainActor @discardableResult
public func connectIntSignal(_ instance: some GObjectPointer, _ signal: String,
                             _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Int32) -> gulong {
    let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> gint = { _, argument, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?) -> Int32>.value(at: data)
        nonisolated(unsafe) let pointer = argument
        return MainActor.assumeIsolated { handler(pointer) }
    }
    return connect(instance, signal, handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Connects `handler` to a GFileMonitor's `changed` (what happened; the file and the other file of
/// a move are not passed on).
@MainActor @discardableResult
public func connectFileMonitorSignal(_ monitor: some GObjectPointer,
                                     _ handler: @escaping @MainActor (GFileMonitorEvent) -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, gpointer?, gpointer?, GFileMonitorEvent, gpointer?) -> Void = { _, _, _, event, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (GFileMonitorEvent) -> Void>.value(at: data)
        MainActor.assumeIsolated { handler(event) }
    }
    return connect(monitor, "changed", handler, through: unsafeBitCast(thunk, to: GCallback.self))
}

/// Disconnects a handler returned by `connectSignal`; GLib then releases its closure.
@MainActor
public func disconnectSignal(_ instance: some GObjectPointer, _ handlerID: gulong) {
    g_signal_handler_disconnect(instance.rawGObject, handlerID)
}

/// The one place a Swift closure becomes a GLib signal handler: GLib owns the retained box and
/// releases it when the handler goes away (disconnect or object disposal).
@MainActor
private func connect<Handler>(_ instance: some GObjectPointer, _ signal: String, _ handler: Handler,
                              through thunk: GCallback) -> gulong {
    let data = ClosureBox(handler).retainedPointer()
    let handlerID = g_signal_connect_data(instance.rawGObject, signal, thunk, data,
                                          closureBoxClosureNotify, GConnectFlags(rawValue: 0))
    if handlerID == 0 {
        releaseClosureBox(data) // GLib rejected the signal name and kept no reference to the box.
    }
    return handlerID
}

/// Runs `action` once `widget` is mapped: now if it is, else at its next `map` (then no more).
/// X11 hints a window manager reads at mapping (keep-above, position) go this way.
@MainActor
public func whenMapped(_ widget: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
    if Bool(gboolean: gtk_widget_get_mapped(widget)) { return action() }
    var handler: gulong = 0
    handler = connectSignal(widget, "map") {
        disconnectSignal(widget, handler)
        action()
    }
}

/// Connects `handler` to a GtkDropTarget's `drop` (the dropped value; where is not passed on);
/// returning false refuses the drop.
@MainActor @discardableResult
public func connectDropSignal(_ target: some GObjectPointer,
                              _ handler: @escaping @MainActor (UnsafePointer<GValue>?) -> Bool) -> gulong {
    let thunk: @convention(c) (gpointer?, UnsafePointer<GValue>?, gdouble, gdouble, gpointer?) -> gboolean = { _, value, _, _, data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor (UnsafePointer<GValue>?) -> Bool>.value(at: data)
        nonisolated(unsafe) let value = value
        return MainActor.assumeIsolated { handler(value) }.gboolean
    }
    return connect(target, "drop", handler, through: unsafeBitCast(thunk, to: GCallback.self))
}
