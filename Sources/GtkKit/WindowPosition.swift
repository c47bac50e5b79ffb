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
