import CGtk
import GtkKit
import StatusKit
import StreamKit

/// The filament in detail, behind the swatches: each AMS unit with its humidity level, then a row
/// per slot — its swatch, its name (`AMS A2`), the material, what is left and a mark on the one
/// feeding now — in aligned columns. Rebuilt only when the filament changes. The rows scroll once
/// they are taller than half the monitor the window is on (the side of the swatches with the more
/// room has at least that): a printer with many units would otherwise run the popover off the
/// screen.
@MainActor
final class FilamentPopover {
    let widget = gtk_popover_new()!
    private let scroller = gtk_scrolled_window_new()!
    private let grid = gtk_grid_new()!
    private(set) var filament = Filament()
    /// The rows' swatches, kept while they are shown (each draws through its object).
    private var swatches: [FilamentSwatch] = []
    /// The texts of each row now, for tests: place, material, remaining, whether marked in use.
    private(set) var rows: [(place: String, material: String, remaining: String?, inUse: Bool)] = []

    init() {
        gtk_grid_set_column_spacing(gcast(grid), 10)
        gtk_grid_set_row_spacing(gcast(grid), 6)
        gtk_widget_add_css_class(grid, "filament-details")
        gtk_widget_add_css_class(widget, "filament-popover")
        gtk_scrolled_window_set_policy(gcast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_width(gcast(scroller), true.gboolean)
        gtk_scrolled_window_set_propagate_natural_height(gcast(scroller), true.gboolean)
        gtk_scrolled_window_set_child(gcast(scroller), grid)
        gtk_popover_set_child(gcast(widget), scroller)
        connectSignal(widget, "show") { [weak self] in self?.fitMonitor() }
    }

    /// Room the popover's frame and arrow take beyond its rows, and a margin from the screen's edge.
    private static let frameRoom: Int32 = 60

    /// Caps the rows' height at half the height of the monitor the window is on, less `frameRoom`.
    private func fitMonitor() {
        guard let parent = gtk_widget_get_parent(widget), let native = gtk_widget_get_native(parent),
              let surface = gtk_native_get_surface(native),
              let monitor = gdk_display_get_monitor_at_surface(gdk_surface_get_display(surface), surface) else { return }
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        gtk_scrolled_window_set_max_content_height(gcast(scroller), max(120, area.height / 2 - Self.frameRoom))
    }

    func show(_ filament: Filament) {
        guard filament != self.filament else { return }
        self.filament = filament
        while let child = gtk_widget_get_first_child(grid) { gtk_grid_remove(gcast(grid), child) }
        rows = []
        swatches = []
        var line: Int32 = 0
        var lastUnit: Int?
        for slot in filament.slots {
            if case .tray(let unit, _) = slot.place {
                if unit != lastUnit {
                    let level = filament.units.first { $0.id == unit }?.humidityLevel
                    line = heading(FilamentText.unit(unit), detail: level.map(FilamentText.humidity), at: line)
                }
                lastUnit = unit
            } else if lastUnit != nil {
                // The external spool is no tray of the unit above it.
                gtk_grid_attach(gcast(grid), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), 0, line, 5, 1)
                line += 1
                lastUnit = nil
            }
            line = row(slot, at: line)
        }
    }

    private func heading(_ title: String, detail: String?, at line: Int32) -> Int32 {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_append(gcast(box), makeLabel(title, classes: ["heading"], leading: true))
        if let detail {
            let label = makeLabel(detail, classes: ["caption", "dim-label"], leading: true)
            gtk_widget_set_valign(label, GTK_ALIGN_BASELINE)
            gtk_box_append(gcast(box), label)
        }
        if line > 0 { gtk_widget_set_margin_top(box, 6) }
        gtk_grid_attach(gcast(grid), box, 0, line, 5, 1)
        return line + 1
    }

    private func row(_ slot: FilamentSlot, at line: Int32) -> Int32 {
        let place = FilamentText.place(slot.place), material = FilamentText.material(slot), left = FilamentText.remaining(slot)
        rows.append((place, material, left, slot.isActive))
        let materialLabel = makeLabel(material, classes: slot.isEmpty ? ["dim-label"] : [], leading: true)
        gtk_widget_set_hexpand(materialLabel, true.gboolean)
        let inUse = makeLabel(slot.isActive ? tr("In use") : nil, classes: ["caption", "filament-in-use"])
        gtk_widget_set_visible(inUse, slot.isActive.gboolean)
        let swatch = FilamentSwatch(slot)
        swatches.append(swatch)
        let cells = [swatch.widget, makeLabel(place, classes: ["dim-label"], leading: true), materialLabel,
                     makeLabel(left ?? "", classes: ["caption", "numeric"], leading: true), inUse]
        for (column, cell) in cells.enumerated() { gtk_grid_attach(gcast(grid), cell, Int32(column), line, 1, 1) }
        return line + 1
    }
}
