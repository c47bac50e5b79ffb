import CGtk
import GtkKit
import StatusKit
import StreamKit

/// The chamber-light switch of a Bambu printer's views (the tab's control bar, the mini window's
/// buttons): a toggle button that shows the light as the printer last reported it — a click only
/// asks the printer, and the button turns when the printer's report says the light did — and that
/// is insensitive while the status is not live or the printer has not said. Hidden for printers
/// whose light Layerwatch cannot switch.
@MainActor
final class ChamberLightToggle {
    let button: UnsafeMutablePointer<GtkWidget>
    private let action: ReportedToggleAction
    private let group = GObjectRef(adopting: g_simple_action_group_new()!)

    /// Asks the printer to switch the light on or off.
    var onRequest: @MainActor (Bool) -> Void {
        get { action.onRequest }
        set { action.onRequest = newValue }
    }

    /// A button with `classes`, its look where it sits.
    init(classes: [String]) {
        action = ReportedToggleAction(name: "chamber-light")
        g_action_map_add_action(gcast(group.pointer), gcast(action.action))
        button = gtk_toggle_button_new()
        gtk_button_set_icon_name(gcast(button), Self.iconName)
        for name in classes { gtk_widget_add_css_class(button, name) }
        gtk_widget_set_tooltip_text(button, tr("Chamber Light"))
        setAccessibleLabel(button, tr("Chamber Light"))
        gtk_widget_insert_action_group(button, "printer", gcast(group.pointer))
        gtk_actionable_set_action_name(gcast(button), "printer.chamber-light")
        gtk_widget_set_visible(button, false.gboolean)
    }

    /// Adwaita 43 has no light bulb: the app's own (data/icons), or the brightness sun where an
    /// installation lacks it. (A themed icon's fallback names would not do: the theme is searched
    /// for every name before the app's hicolor icons are.)
    private static var iconName: String {
        let own = "layerwatch-lightbulb-symbolic"
        let theme = gtk_icon_theme_get_for_display(gdk_display_get_default())
        return Bool(gboolean: gtk_icon_theme_has_icon(theme, own)) ? own : "display-brightness-symbolic"
    }

    /// Follows the printer's latest status; `switchable` says whether it has a light to switch.
    func show(_ update: StatusMonitor.Update?, switchable: Bool) {
        gtk_widget_set_visible(button, switchable.gboolean)
        let light = update?.status?.chamberLight
        action.report(light ?? false)
        action.isEnabled = update?.connection == .live && light != nil
    }

    /// The light as the button shows it.
    var isOn: Bool { Bool(gboolean: gtk_toggle_button_get_active(gcast(button))) }
    var isSensitive: Bool { Bool(gboolean: gtk_widget_is_sensitive(button)) }
    var isShown: Bool { Bool(gboolean: gtk_widget_get_visible(button)) }
}
