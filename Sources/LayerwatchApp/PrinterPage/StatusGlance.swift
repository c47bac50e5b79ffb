import CGtk
import GtkKit
import StatusKit

/// What a user glances at besides the print: the heaters (`TemperatureLine`) and the loaded
/// filament (`FilamentSwatches`), on one line — in the tab's status strip and as a farm tile's second
/// line. Shown while the status is live and says either.
@MainActor
final class StatusGlance {
    let widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
    let temperatures = TemperatureLine()
    let filament = FilamentSwatches()

    init() {
        gtk_widget_add_css_class(widget, "status-glance")
        gtk_box_append(gcast(widget), temperatures.widget)
        gtk_box_append(gcast(widget), filament.button)
        gtk_widget_set_visible(widget, false.gboolean)
    }

    var isShown: Bool { Bool(gboolean: gtk_widget_get_visible(widget)) }

    /// Shows `status` (nil: no live status).
    func show(_ status: PrinterStatus?) {
        temperatures.show(status)
        filament.show(status?.filament ?? Filament())
        gtk_widget_set_visible(widget, (temperatures.text != nil || filament.isShown).gboolean)
    }
}
