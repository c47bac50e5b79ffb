import CGtk
import CLayerwatch

/// Keeps a small window above the others, as far as the display allows. GTK 4 has no keep-above
/// call: on X11 (and XWayland) the EWMH `_NET_WM_STATE_ABOVE` request is sent once the window is
/// mapped; Wayland has no protocol for it, so the caller tells the user how their desktop does it.
public enum KeepAbove {
    /// What a window got.
    public enum Outcome: Equatable, Sendable {
        /// The request went to the X11 window manager.
        case requested
        /// Not possible from an app on this display (Wayland).
        case unsupported
    }

    /// Asks for `window` to stay on top, once it is mapped (now, or when it maps). On X11 it also
    /// asks the window manager to keep `aspect` (width:height) while resizing.
    @MainActor
    public static func apply(to window: UnsafeMutablePointer<GtkWidget>, aspect: (Int32, Int32)? = nil) -> Outcome {
        guard let display = gtk_widget_get_display(window), Bool(gboolean: lw_display_is_x11(display)) else {
            return .unsupported
        }
        let request = { @MainActor in
            guard let surface = gtk_native_get_surface(gcast(window)), Bool(gboolean: lw_surface_is_x11(surface)) else { return }
            lw_x11_set_keep_above(surface, true.gboolean)
            if let aspect { lw_x11_set_aspect(surface, aspect.0, aspect.1) }
        }
        whenMapped(window, request)
        return .requested
    }
}
