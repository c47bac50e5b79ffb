import CGtk
import CLayerwatch

/// A window's place on the screen, where an app may know it and ask for it: on X11 (and XWayland)
/// it is read from the X window (its client area's top-left corner, in root-window coordinates)
/// and asked of the window manager, which GTK 4 has no call for. On Wayland the compositor alone
/// places windows and no protocol tells an app where its window is, so there is nothing to read
/// and moving does nothing.
public enum WindowPosition {
    /// Where `window`'s top-left corner is now; nil unless it is mapped on X11.
    @MainActor
    public static func read(_ window: UnsafeMutablePointer<GtkWidget>) -> (x: Int32, y: Int32)? {
        guard Bool(gboolean: gtk_widget_get_mapped(window)), let surface = gtk_native_get_surface(gcast(window)),
              Bool(gboolean: lw_surface_is_x11(surface)) else { return nil }
        var x: Int32 = 0, y: Int32 = 0
        return Bool(gboolean: lw_x11_get_position(surface, &x, &y)) ? (x, y) : nil
    }

    /// A rectangle on the screen, in the X server's pixels.
    public struct Frame: Equatable, Sendable {
        public var x, y, width, height: Int32
        public init(x: Int32, y: Int32, width: Int32, height: Int32) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// Where a window `size` big goes beside `anchor` on `monitor`, `gap` apart: right of its right
    /// edge if it fits on the monitor, else left of its left edge, else inside its bottom-right
    /// corner (over its content, never its header bar); its top level with the anchor's, kept on
    /// the monitor.
    public static func beside(_ anchor: Frame, size: (width: Int32, height: Int32), on monitor: Frame,
                              gap: Int32) -> (x: Int32, y: Int32) {
        let top = max(monitor.y, min(anchor.y, monitor.y + monitor.height - size.height))
        if anchor.x + anchor.width + gap + size.width <= monitor.x + monitor.width {
            return (anchor.x + anchor.width + gap, top)
        }
        if anchor.x - gap - size.width >= monitor.x {
            return (anchor.x - gap - size.width, top)
        }
        return (max(monitor.x, anchor.x + anchor.width - gap - size.width), max(monitor.y, anchor.y + anchor.height - gap - size.height))
    }

    /// Where a window `size` (application pixels) big goes beside `anchor` (a mapped window), by
    /// `beside(_:size:on:gap:)` on the anchor's monitor; nil unless the anchor is mapped on X11.
    @MainActor
    public static func beside(_ anchor: UnsafeMutablePointer<GtkWidget>, size: (width: Int32, height: Int32),
                              gap: Int32 = 12) -> (x: Int32, y: Int32)? {
        guard let corner = read(anchor), let surface = gtk_native_get_surface(gcast(anchor)),
              let monitor = gdk_display_get_monitor_at_surface(gdk_surface_get_display(surface), surface) else { return nil }
        let scale = gtk_widget_get_scale_factor(anchor)
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        return beside(Frame(x: corner.x, y: corner.y, width: gtk_widget_get_width(anchor) * scale, height: gtk_widget_get_height(anchor) * scale),
                      size: (size.width * scale, size.height * scale),
                      on: Frame(x: area.x * scale, y: area.y * scale, width: area.width * scale, height: area.height * scale), gap: gap * scale)
    }

    /// Asks for `window`'s top-left corner at `position` (as `read` gives it), once it is mapped
    /// (now, or when it maps); nothing on Wayland.
    @MainActor
    public static func move(_ window: UnsafeMutablePointer<GtkWidget>, to position: (x: Int32, y: Int32)) {
        let request = { @MainActor in
            guard let surface = gtk_native_get_surface(gcast(window)), Bool(gboolean: lw_surface_is_x11(surface)) else { return }
            lw_x11_move(surface, position.x, position.y)
        }
        whenMapped(window, request)
    }
}
