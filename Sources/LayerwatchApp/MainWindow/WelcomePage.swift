import CGtk
import GtkKit
import StreamKit

/// What the window shows where a printer's tab would be when there is no printer: on the first
/// start and after the last one was removed (or the demo's tab closed), never a blank window (with
/// printers whose tabs are all closed, `ClosedTabsPage` shows instead). It says what Layerwatch
/// does and offers the next step: Add Printer, the suggested action, Try the Demo Printer, which
/// opens the built-in demo with a simulated print, and the Bambu printers announcing themselves on
/// the network, listed live (a pick opens Add Printer filled in).
@MainActor
final class WelcomePage {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The printers found on the network, while the page shows.
    let discovered = DiscoveredPrinterList()

    init() {
        widget = adw_status_page_new()
        adw_status_page_set_icon_name(gcast(widget), "io.github.layerwatch.Layerwatch")
        adw_status_page_set_title(gcast(widget), tr("Welcome to Layerwatch"))
        adw_status_page_set_description(gcast(widget), tr("Watch your 3D printers' cameras and prints live, and be told when a print finishes or fails. Add a Bambu Lab, Creality, Elegoo, Flashforge, Klipper (Moonraker), OctoPrint or Prusa printer, or any camera by its address."))
        let buttons = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        for (feature, suggested) in [(Feature.addPrinter, true), (Feature.showDemo, false)] {
            let button = gtk_button_new_with_label(feature.title)!
            gtk_actionable_set_action_name(gcast(button), feature.actionName)
            gtk_widget_add_css_class(button, "pill")
            if suggested { gtk_widget_add_css_class(button, "suggested-action") }
            gtk_box_append(gcast(buttons), button)
        }
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)!
        gtk_box_append(gcast(column), buttons)
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(gcast(group), tr("On your network"))
        adw_preferences_group_add(gcast(group), discovered.widget)
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(gcast(clamp), 480)
        adw_clamp_set_child(gcast(clamp), group)
        gtk_box_append(gcast(column), clamp)
        adw_status_page_set_child(gcast(widget), column)
    }
}
