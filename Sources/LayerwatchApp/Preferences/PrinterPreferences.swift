import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// The Preferences window's Printers page: the saved printers in their tabs' order, each a row
/// named for its printer that opens the printer dialog when activated (its one way to edit, the
/// name included, as GNOME's lists do), with Move Up, Move Down and Remove (after asking). The list
/// follows the library; what each row does is the application's (`Actions`), so tabs and mini
/// windows follow too.
@MainActor
final class PrinterPreferences {
    /// What the rows' buttons ask the application to do.
    struct Actions {
        /// Moves the printer one place earlier (-1) or later (+1).
        var move: @MainActor (UUID, Int) -> Void
        var edit: @MainActor (UUID) -> Void
        /// Asks over the given window, then removes the printer.
        var remove: @MainActor (UUID, UnsafeMutablePointer<GtkWidget>) -> Void
    }

    let page: UnsafeMutablePointer<GtkWidget>
    private let actions: Actions
    /// The Preferences window, over which Remove asks.
    private let parent: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let empty: UnsafeMutablePointer<GtkWidget>
    /// Each printer's row, by id, in order (for tests).
    private(set) var printerRows: [(id: UUID, row: UnsafeMutablePointer<GtkWidget>)] = []
    /// What the rows show (ids and names): another change rebuilds nothing.
    private var listed: [String] = []

    init(actions: Actions, parent: UnsafeMutablePointer<GtkWidget>) {
        self.actions = actions
        self.parent = parent
        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(gcast(list), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        empty = gtk_label_new(tr("No printer is saved. Add one with Add Printer… in the main window."))
        gtk_label_set_wrap(gcast(empty), true.gboolean)
        gtk_widget_add_css_class(empty, "dim-label")
        let group = PreferenceRows.group(tr("Saved Printers"), description: tr("In the order of their tabs"), [list, empty])
        page = PreferenceRows.page(tr("Printers"), icon: "printer-symbolic", [group])
    }

    /// Lists `printers`, in order.
    func show(_ printers: [Printer]) {
        let rows = printers.map { "\($0.id) \($0.name) \(Self.subtitle(of: $0))" }
        guard rows != listed else { return }
        listed = rows
        while let row = gtk_widget_get_first_child(list) { gtk_list_box_remove(gcast(list), row) }
        printerRows = printers.enumerated().map { index, printer in
            let row = makeRow(printer, first: index == 0, last: index == printers.count - 1)
            gtk_list_box_append(gcast(list), row)
            return (printer.id, row)
        }
        gtk_widget_set_visible(list, (!printers.isEmpty).gboolean)
        gtk_widget_set_visible(empty, printers.isEmpty.gboolean)
    }

    private func makeRow(_ printer: Printer, first: Bool, last: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(gcast(row), printer.name)
        adw_preferences_row_set_use_markup(gcast(row), false.gboolean)
        adw_action_row_set_subtitle(gcast(row), Self.subtitle(of: printer))
        gtk_list_box_row_set_activatable(gcast(row), true.gboolean)
        gtk_widget_set_tooltip_text(row, tr("Edit…"))
        let id = printer.id
        connectSignal(row, "activated") { [actions] in actions.edit(id) }
        let buttons: [(icon: String, tooltip: String, enabled: Bool, action: @MainActor () -> Void)] = [
            ("go-up-symbolic", tr("Move Up"), !first, { [actions] in actions.move(id, -1) }),
            ("go-down-symbolic", tr("Move Down"), !last, { [actions] in actions.move(id, 1) }),
            ("user-trash-symbolic", tr("Remove"), true, { [actions, parent] in actions.remove(id, parent) }),
        ]
        for (icon, tooltip, enabled, action) in buttons {
            let button = gtk_button_new_from_icon_name(icon)!
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
            gtk_widget_set_tooltip_text(button, tooltip)
            setAccessibleLabel(button, String(format: "%@: %@", tooltip, printer.name))
            gtk_widget_set_sensitive(button, enabled.gboolean)
            connectSignal(button, "clicked", action)
            adw_action_row_add_suffix(gcast(row), button)
        }
        return row
    }

    /// The row's second line: what the window's subtitle says of the printer ("Klipper · 192.168.1.20").
    private static func subtitle(of printer: Printer) -> String {
        printer.subtitle(source: printer.cameras.first.flatMap { try? printer.source(of: $0) })
    }
}
