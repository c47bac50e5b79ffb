import CGtk
import Foundation

/// Keeps a small window above the others, as far as the desktop allows. GTK 4 has no keep-above
/// call: on X11 (and XWayland) the EWMH `_NET_WM_STATE_ABOVE` request is sent once the window is
/// mapped; Wayland has no protocol for it, so the caller shows the user how their desktop does it.
public enum KeepAbove {
    /// What a window got.
    public enum Outcome: Equatable, Sendable {
        /// The request went to the X11 window manager.
        case requested
        /// Not possible from the app (Wayland): `hint` tells the user what to do instead.
        case unsupported(hint: String)
    }

    /// Asks for `window` to stay on top, once it is mapped (now, or when it maps). On X11 it also
    /// asks the window manager to keep `aspect` (width:height) while resizing.
    @MainActor
    public static func apply(to window: UnsafeMutablePointer<GtkWidget>, aspect: (Int32, Int32)? = nil) -> Outcome {
        guard let display = gtk_widget_get_display(window), lw_display_is_x11(display) != 0 else {
            return .unsupported(hint: waylandHint(desktop: ProcessInfo.processInfo.environment["XDG_CURRENT_DESKTOP"]))
        }
        let request = { @MainActor in
            guard let surface = gtk_native_get_surface(gcast(window)), lw_surface_is_x11(surface) != 0 else { return }
            lw_x11_set_keep_above(surface, 1)
            if let aspect { lw_x11_set_aspect(surface, aspect.0, aspect.1) }
        }
        if gtk_widget_get_mapped(window) != 0 {
            request()
        } else {
            var handler: gulong = 0
            handler = connectSignal(window, "map") {
                disconnectSignal(window, handler)
                request()
            }
        }
        return .requested
    }

    /// How to keep a window on top by hand on the desktop named by `XDG_CURRENT_DESKTOP`.
    public static func waylandHint(desktop: String?) -> String {
        let names = (desktop ?? "").lowercased().split(separator: ":").map(String.init)
        if names.contains("gnome") {
            return "To keep this window on top, right-click its title and choose Always on Top."
        }
        if names.contains("kde") {
            return "To keep this window on top, press Alt+F3, then More Actions → Keep Above Others."
        }
        if names.contains("sway") {
            return "To keep this window on top in sway, add a rule: for_window [title=\" - PiP$\"] floating enable, sticky enable."
        }
        if names.contains("hyprland") {
            return "To keep this window on top in Hyprland, add a rule: windowrulev2 = pin, title:( - PiP)$"
        }
        return "Wayland lets no app keep itself on top: use your desktop's window menu or a window rule matching \" - PiP\"."
    }
}
