import CGtk
import GtkKit

/// Alt+Shift+1…9 on a window: its printer's cameras (features `show-camera-1`…`9`). The
/// key is matched by the digit it carries unshifted, whatever the layout puts on it with Shift
/// ("!" on a US keyboard), because GTK's accelerators compare the shifted symbol. It listens in the
/// capture phase, before the tab view's own Alt+1…9.
@MainActor
enum CameraKeys {
    /// Makes `window`'s Alt+Shift+digit activate the `show-camera-N` action of the printer group
    /// `actions` gives (the selected tab's), while that is enabled.
    static func install(on window: UnsafeMutablePointer<GtkWidget>,
                        actions: @escaping @MainActor () -> UnsafeMutablePointer<GSimpleActionGroup>?) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        connectKeySignal(keys) { _, modifiers in
            let held = modifiers & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
            guard held == GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue, let event = gtk_event_controller_get_current_event(keys),
                  let number = digit(of: event) else { return false }
            let name = Feature.showCamera(number).name
            guard let group = actions(), let action = g_action_map_lookup_action(gcast(group), name),
                  Bool(gboolean: g_action_get_enabled(action)) else { return false }
            g_action_activate(action, nil)
            return true
        }
        gtk_widget_add_controller(window, keys)
    }

    /// The digit 1…9 the event's key carries unshifted in its layout, if any.
    private static func digit(of event: OpaquePointer) -> Int? {
        var keyval: guint = 0
        guard Bool(gboolean: gdk_display_translate_key(gdk_event_get_display(event), gdk_key_event_get_keycode(event),
                                                        GdkModifierType(rawValue: 0), Int32(gdk_key_event_get_layout(event)),
                                                        &keyval, nil, nil, nil)) else { return nil }
        let digits = guint(GDK_KEY_1)...guint(GDK_KEY_9), keypad = guint(GDK_KEY_KP_1)...guint(GDK_KEY_KP_9)
        if digits.contains(keyval) { return Int(keyval - guint(GDK_KEY_1)) + 1 }
        if keypad.contains(keyval) { return Int(keyval - guint(GDK_KEY_KP_1)) + 1 }
        return nil
    }
}
