import CGtk
import GtkKit
import StreamKit

/// The printer dialog's "Connection test" group: the Test Connection button in its header and,
/// once a test ran, a row per check — the printer's status, then each camera by its name — with a
/// spinner while it runs, then a green tick or a red mark and what it found in the user's words.
/// A failed row can be activated to go to the field to fix. The dialog runs the checks; this shows them.
@MainActor
final class ConnectionTestRows {
    /// How a check stands.
    enum Outcome: Equatable {
        case running, passed, failed
    }

    let widget = adw_preferences_group_new()!
    let button = gtk_button_new_with_label(tr("Test Connection"))!
    /// A failed row was activated: its index.
    var onActivate: @MainActor (Int) -> Void = { _ in }
    private let listBox = gtk_list_box_new()!
    /// What stands under the rows when the test could not start.
    private let note = makeLabel(wraps: true, leading: true)
    private var rows: [(row: UnsafeMutablePointer<GtkWidget>, mark: UnsafeMutablePointer<GtkWidget>, outcome: Outcome)] = []

    init() {
        adw_preferences_group_set_title(gcast(widget), tr("Connection test"))
        adw_preferences_group_set_description(gcast(widget), tr("Tries the printer's status and each camera as they will be saved."))
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        adw_preferences_group_set_header_suffix(gcast(widget), button)
        gtk_widget_add_css_class(listBox, "boxed-list")
        gtk_list_box_set_selection_mode(gcast(listBox), GTK_SELECTION_NONE)
        gtk_widget_set_visible(listBox, false.gboolean)
        gtk_label_set_selectable(gcast(note), true.gboolean)
        gtk_widget_set_visible(note, false.gboolean)
        adw_preferences_group_add(gcast(widget), listBox)
        adw_preferences_group_add(gcast(widget), note)
        connectSignal(listBox, "row-activated") { [weak self] (row: UnsafeMutableRawPointer?) in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
            if rows.indices.contains(index), rows[index].outcome == .failed { onActivate(index) }
        }
    }

    /// Replaces the rows with one running check per title; the button waits for them.
    func start(_ titles: [String]) {
        showNote(nil)
        rows.forEach { gtk_list_box_remove(gcast(listBox), $0.row) }
        rows = titles.map { title in
            let row = adw_action_row_new()!
            adw_preferences_row_set_use_markup(gcast(row), false.gboolean)
            adw_preferences_row_set_title(gcast(row), title)
            adw_action_row_set_subtitle(gcast(row), tr("Connecting…"))
            gtk_list_box_row_set_activatable(gcast(row), false.gboolean)
            let mark = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
            gtk_widget_set_valign(mark, GTK_ALIGN_CENTER)
            adw_action_row_add_prefix(gcast(row), mark)
            gtk_list_box_append(gcast(listBox), row)
            return (row, mark, .running)
        }
        rows.indices.forEach { show(.running, at: $0) }
        gtk_widget_set_visible(listBox, (!rows.isEmpty).gboolean)
        gtk_widget_set_sensitive(button, rows.isEmpty.gboolean)
    }

    /// The check at `index` ended (`passed` or `failed`) and found `text`; the button comes back
    /// with the last one.
    func finish(_ index: Int, _ outcome: Outcome, _ text: String) {
        guard rows.indices.contains(index) else { return }
        adw_action_row_set_subtitle(gcast(rows[index].row), text)
        show(outcome, at: index)
        gtk_list_box_row_set_activatable(gcast(rows[index].row), (outcome == .failed).gboolean)
        if isDone { gtk_widget_set_sensitive(button, true.gboolean) }
    }

    /// Says `text` instead of rows (nil: nothing).
    func showNote(_ text: String?) {
        if text != nil {
            rows.forEach { gtk_list_box_remove(gcast(listBox), $0.row) }
            rows = []
            gtk_widget_set_visible(listBox, false.gboolean)
        }
        gtk_label_set_text(gcast(note), text ?? "")
        gtk_widget_set_visible(note, (text != nil).gboolean)
    }

    /// Whether no check is running.
    var isDone: Bool { !rows.contains { $0.outcome == .running } }

    var outcomes: [Outcome] { rows.map(\.outcome) }

    /// What each row says ("title — result"), for tests.
    var rowTexts: [String] { rows.map { Self.title(of: $0.row) + " — " + Self.subtitle(of: $0.row) } }

    /// The note, or the rows' results a line each.
    var text: String {
        rows.isEmpty ? String(cString: gtk_label_get_text(gcast(note))) : rows.map { Self.subtitle(of: $0.row) }.joined(separator: "\n")
    }

    /// Shows a spinner, a tick or a mark before the row at `index`.
    private func show(_ outcome: Outcome, at index: Int) {
        rows[index].outcome = outcome
        let mark = rows[index].mark
        while let child = gtk_widget_get_first_child(mark) { gtk_box_remove(gcast(mark), child) }
        let shown: UnsafeMutablePointer<GtkWidget>
        switch outcome {
        case .running:
            shown = gtk_spinner_new()!
            gtk_spinner_start(gcast(shown))
            setAccessibleLabel(shown, tr("Testing"))
        case .passed:
            shown = gtk_image_new_from_icon_name("emblem-ok-symbolic")!
            gtk_widget_add_css_class(shown, "success")
            setAccessibleLabel(shown, tr("Passed"))
        case .failed:
            shown = gtk_image_new_from_icon_name("dialog-error-symbolic")!
            gtk_widget_add_css_class(shown, "error")
            setAccessibleLabel(shown, tr("Failed"))
        }
        gtk_box_append(gcast(mark), shown)
    }

    private static func title(of row: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: adw_preferences_row_get_title(gcast(row)))
    }

    private static func subtitle(of row: UnsafeMutablePointer<GtkWidget>) -> String {
        adw_action_row_get_subtitle(gcast(row)).map { String(cString: $0) } ?? ""
    }
}
