import CGtk
import GtkKit
import TestSupport

/// Finds the Preferences window's controls as a user sees them: a row by its title, the switch or
/// the button (by its tooltip) in it.
@MainActor
enum PreferencesWidgets {
    /// The rows (AdwPreferencesRow) titled `title` under `root`.
    static func rows(titled title: String, in root: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        descendants(of: root).filter { widget in
            g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                       adw_preferences_row_get_type()) != 0
                && String(cString: adw_preferences_row_get_title(gcast(widget))) == title
        }
    }

    static func row(titled title: String, in root: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        rows(titled: title, in: root).first
    }

    /// The switch at the end of `row`.
    static func toggle(in row: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        descendants(of: row).first { typeName($0) == "GtkSwitch" }
    }

    /// The button of `row` whose tooltip is `tooltip`.
    static func button(_ tooltip: String, in row: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        descendants(of: row).first { widget in
            typeName(widget) == "GtkButton"
                && gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } == tooltip
        }
    }

    static func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: g_type_name_from_instance(gcast(widget)))
    }

    /// Brings up the page `widget` is on, as a click on the page's name does.
    static func show(_ widget: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) {
        guard let page = gtk_widget_get_ancestor(widget, adw_preferences_page_get_type()) else { return }
        adw_preferences_window_set_visible_page(gcast(window), gcast(page))
        _ = iterateMainContext(timeout: 2) { Bool(gboolean: gtk_widget_get_mapped(widget)) }
    }

    /// Flips the row's switch as a click on it does; returns its new state.
    static func flip(_ title: String, in root: UnsafeMutablePointer<GtkWidget>) -> Bool? {
        guard let row = row(titled: title, in: root), let toggle = toggle(in: row) else { return nil }
        show(row, in: root)
        let was = Bool(gboolean: gtk_switch_get_active(gcast(toggle)))
        gtk_widget_activate(toggle)
        _ = iterateMainContext(timeout: 2) { Bool(gboolean: gtk_switch_get_active(gcast(toggle))) != was }  // after its animation
        return Bool(gboolean: gtk_switch_get_active(gcast(toggle)))
    }
}
