import CGtk
import GtkKit

/// The camera page's buttons: snapshot, stats, fullscreen, pop-out, reconnect. They are wired to window
/// actions (so the same features have keyboard shortcuts); the bar only knows how to lie flat below
/// the video or stand up beside it.
@MainActor
final class ControlBar {
    let widget: UnsafeMutablePointer<GtkWidget>

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_add_css_class(widget, "control-bar")
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        append(button("camera-photo-symbolic", "Save Snapshot (Ctrl+S)", action: "win.snapshot"))
        append(toggle("preferences-system-details-symbolic", "Show Stats (Ctrl+I)", action: "win.show-stats"))
        append(button("view-fullscreen-symbolic", "Fullscreen (F11)", action: "win.fullscreen"))
        append(button("view-dual-symbolic", "Pop Out Mini Window (Ctrl+Shift+P)", action: "win.pop-out"))
        append(button("view-refresh-symbolic", "Reconnect (Ctrl+R)", action: "win.reconnect"))
    }

    /// Horizontal under the video, vertical beside it.
    func setOrientation(_ orientation: GtkOrientation) {
        gtk_orientable_set_orientation(gcast(widget), orientation)
    }

    var orientation: GtkOrientation { gtk_orientable_get_orientation(gcast(widget)) }

    private func append(_ child: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(gcast(widget), child)
    }

    private func button(_ icon: String, _ tooltip: String, action: String) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name(icon)!
        decorate(button, tooltip, action)
        return button
    }

    private func toggle(_ icon: String, _ tooltip: String, action: String) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_toggle_button_new()!
        gtk_button_set_icon_name(gcast(button), icon)
        decorate(button, tooltip, action)
        return button
    }

    private func decorate(_ button: UnsafeMutablePointer<GtkWidget>, _ tooltip: String, _ action: String) {
        gtk_widget_set_tooltip_text(button, tooltip)
        gtk_actionable_set_action_name(gcast(button), action)
        gtk_widget_add_css_class(button, "circular")
        gtk_widget_add_css_class(button, "flat")
        lw_accessible_set_label(button, tooltip)
    }
}
