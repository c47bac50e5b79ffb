import CGtk
import GtkKit

/// The list a combo row of strings pops up, each choice's whole title shown (wrapped onto a second
/// line when long) with a check mark on the chosen one. libadwaita's own list cuts every title at
/// 20 characters with "…", which left the printer dialog's types unreadable ("Bambu Lab with
/// RTSP…"). It lives as long as its row.
@MainActor
final class FullTitleChoiceList {
    /// The widest a title is before it wraps, in characters: the popover stays narrower than the dialog.
    private static let widestTitle: Int32 = 36
    private let row: UnsafeMutablePointer<GtkWidget>
    /// Each list item's check mark, while the item is set up.
    private var marks: [UnsafeMutableRawPointer: UnsafeMutablePointer<GtkWidget>] = [:]

    /// Gives `row` (an AdwComboRow whose model is a GtkStringList) this list.
    static func attach(to row: UnsafeMutablePointer<GtkWidget>) {
        _ = FullTitleChoiceList(row: row)
    }

    private init(row: UnsafeMutablePointer<GtkWidget>) {
        self.row = row
        let factory = GObjectRef(adopting: gtk_signal_list_item_factory_new()!)
        connectSignal(factory.pointer, "setup") { [weak self] (item: UnsafeMutableRawPointer?) in if let item { self?.setUp(item) } }
        connectSignal(factory.pointer, "bind") { [weak self] (item: UnsafeMutableRawPointer?) in if let item { self?.bind(item) } }
        connectSignal(factory.pointer, "teardown") { [weak self] (item: UnsafeMutableRawPointer?) in if let item { self?.marks[item] = nil } }
        adw_combo_row_set_list_factory(gcast(row), factory.pointer)
        connectNotify(row, "selected") { [weak self] in self?.markChosen() }
        keepAlive(self, untilDestroyed: row)
    }

    private func setUp(_ item: UnsafeMutableRawPointer) {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let label = makeLabel(wraps: true, leading: true)
        gtk_label_set_wrap_mode(gcast(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_max_width_chars(gcast(label), Self.widestTitle)
        gtk_widget_set_hexpand(label, true.gboolean)
        let mark = gtk_image_new_from_icon_name("object-select-symbolic")!
        gtk_widget_set_valign(mark, GTK_ALIGN_CENTER)
        gtk_box_append(gcast(box), label)
        gtk_box_append(gcast(box), mark)
        gtk_list_item_set_child(gcast(item), box)
        marks[item] = mark
    }

    private func bind(_ item: UnsafeMutableRawPointer) {
        guard let box = gtk_list_item_get_child(gcast(item)), let label = gtk_widget_get_first_child(box),
              let string = gtk_list_item_get_item(gcast(item)) else { return }
        gtk_label_set_text(gcast(label), gtk_string_object_get_string(gcast(string)))
        markChosen()
    }

    /// Shows the check mark of the chosen title only.
    private func markChosen() {
        let chosen = adw_combo_row_get_selected(gcast(row))
        for (item, mark) in marks {
            gtk_widget_set_opacity(mark, gtk_list_item_get_position(gcast(item)) == chosen ? 1 : 0)
        }
    }
}
