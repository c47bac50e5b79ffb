import CGtk
import GtkKit
import StatusKit
import StreamKit

/// The filament a printer has loaded, at a glance: a row of colour swatches (at most
/// `shownAtMost`, the one feeding now always among them, "+N" for the rest) on a flat menu button
/// whose popover lists every unit and tray (`FilamentPopover`). Hidden while the printer reports
/// no filament.
@MainActor
final class FilamentSwatches {
    static let shownAtMost = 8
    let button = gtk_menu_button_new()!
    let popover = FilamentPopover()
    private let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)!
    private var swatches: [FilamentSwatch] = []
    private let more = makeLabel(classes: ["caption", "numeric"])

    init() {
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_add_css_class(button, "filament-swatches")
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_box_append(gcast(row), more)
        gtk_menu_button_set_child(gcast(button), row)
        gtk_menu_button_set_popover(gcast(button), popover.widget)
        // The strip sits at the picture's foot: the details open upwards, over the picture.
        gtk_menu_button_set_direction(gcast(button), GTK_ARROW_UP)
        gtk_widget_set_tooltip_text(button, tr("Filament"))
        gtk_widget_set_visible(button, false.gboolean)
    }

    /// The slots the swatches show now (for tests and the window's pixel checks).
    var shown: [(slot: FilamentSlot, widget: UnsafeMutablePointer<GtkWidget>)] {
        swatches.compactMap { swatch in swatch.slot.map { ($0, swatch.widget) } }.filter { gtk_widget_get_visible($0.1) != 0 }
    }

    var isShown: Bool { Bool(gboolean: gtk_widget_get_visible(button)) }
    /// "+N" while some slots have no swatch, else nil.
    var moreText: String? { Bool(gboolean: gtk_widget_get_visible(more)) ? String(cString: gtk_label_get_text(gcast(more))) : nil }

    func show(_ filament: Filament) {
        gtk_widget_set_visible(button, (!filament.isEmpty).gboolean)
        popover.show(filament)
        var slots = Array(filament.slots.prefix(Self.shownAtMost))
        if let active = filament.active, !slots.contains(active) { slots[slots.count - 1] = active }
        while swatches.count < slots.count {
            let swatch = FilamentSwatch()
            gtk_box_insert_child_after(gcast(row), swatch.widget, swatches.last?.widget)
            swatches.append(swatch)
        }
        for (index, swatch) in swatches.enumerated() {
            swatch.slot = index < slots.count ? slots[index] : nil
            gtk_widget_set_visible(swatch.widget, (index < slots.count).gboolean)
        }
        let hidden = filament.slots.count - slots.count
        gtk_label_set_text(gcast(more), String(format: tr("+%d"), hidden))
        gtk_widget_set_visible(more, (hidden > 0).gboolean)
        let summary = filament.slots.map { FilamentText.place($0.place) + ": " + FilamentText.summary($0) }.joined(separator: "; ")
        setAccessibleLabel(button, String(format: tr("Filament: %@"), summary))
    }
}
