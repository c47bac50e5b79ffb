import CGtk
import GtkKit

/// One field of a GNOME form: an AdwPreferencesGroup holding the field's row (an entry row, a
/// password entry row, a combo row) or its titled rows and controls, and under it a message line
/// that shows the field's hint or, while something is wrong with it, the error in its place; the
/// row is marked with the `error` style meanwhile. Validation and checks say what is wrong where
/// it is wrong, and the line keeps its height so nothing below moves.
@MainActor
final class FormField {
    /// The group: shown or hidden as a whole.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The row (or other control) the user edits: an entry row is a `GtkEditable`.
    let entry: UnsafeMutablePointer<GtkWidget>
    /// Whether the title is the row's (entry and combo rows) or the group's (titled controls).
    private let titledRow: Bool
    /// Whether the row is a combo row (it says a new choice, not an edit).
    private let isChoice: Bool
    private let message = FieldMessageLine()
    /// A choice field's choices, in order.
    private var choices: [String] = []

    /// A text field: an entry row, or a password entry row (masked, with reveal) when `secret`.
    convenience init(title: String, secret: Bool = false, hint: String? = nil) {
        let row = secret ? adw_password_entry_row_new()! : adw_entry_row_new()!
        adw_entry_row_set_activates_default(gcast(row), true.gboolean)
        self.init(row: row, title: title, hint: hint, isChoice: false)
    }

    /// A choice of one of `choices`, the first chosen; its list shows every title whole.
    convenience init(title: String, choices: [String], hint: String? = nil) {
        let row = adw_combo_row_new()!
        setChoices(of: row, choices)
        FullTitleChoiceList.attach(to: row)
        self.init(row: row, title: title, hint: hint, isChoice: true)
        self.choices = choices
    }

    /// A field whose title is its row's own.
    private init(row: UnsafeMutablePointer<GtkWidget>, title: String, hint: String?, isChoice: Bool) {
        widget = adw_preferences_group_new()
        entry = row
        titledRow = true
        self.isChoice = isChoice
        adw_preferences_row_set_use_markup(gcast(row), false.gboolean)
        adw_preferences_row_set_title(gcast(row), title)
        finish(adding: [row], hint: hint)
    }

    /// A field titled above its rows or controls (a list, a button); `control` is the one marked
    /// when the field is wrong.
    init(title: String, control: UnsafeMutablePointer<GtkWidget>, rows: [UnsafeMutablePointer<GtkWidget>]? = nil,
         hint: String? = nil) {
        widget = adw_preferences_group_new()
        entry = control
        titledRow = false
        isChoice = false
        adw_preferences_group_set_title(gcast(widget), title)
        finish(adding: rows ?? [control], hint: hint)
    }

    private func finish(adding children: [UnsafeMutablePointer<GtkWidget>], hint: String?) {
        for child in children { adw_preferences_group_add(gcast(widget), child) }
        adw_preferences_group_add(gcast(widget), message.widget)
        message.hint = hint ?? ""
        message.describe(entry)
    }

    /// Adds a button under the field's message line, hidden until shown: the fix a message offers.
    func addFixButton(_ label: String) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_with_label(label)!
        gtk_widget_set_halign(button, GTK_ALIGN_START)
        gtk_widget_set_visible(button, false.gboolean)
        adw_preferences_group_add(gcast(widget), button)
        return button
    }

    /// Whether the row is an entry row the user types in.
    var isTextEntry: Bool { titledRow && !isChoice }

    /// The text of an entry field.
    var text: String {
        get { String(cString: gtk_editable_get_text(gcast(entry))) }
        set { gtk_editable_set_text(gcast(entry), newValue) }
    }

    /// Makes `choices` a choice field's choices, the first chosen, unless they are those it offers.
    func showChoices(_ choices: [String]) {
        guard choices != self.choices else { return }
        self.choices = choices
        setChoices(of: entry, choices)
    }

    /// The position chosen in a choice field.
    var selected: Int {
        get { Int(adw_combo_row_get_selected(gcast(entry))) }
        set { adw_combo_row_set_selected(gcast(entry), guint(newValue)) }
    }

    var titleText: String {
        String(cString: titledRow ? adw_preferences_row_get_title(gcast(entry)) : adw_preferences_group_get_title(gcast(widget)))
    }

    /// Replaces the field's title.
    func setTitle(_ title: String) {
        if titledRow { adw_preferences_row_set_title(gcast(entry), title) } else { adw_preferences_group_set_title(gcast(widget), title) }
    }

    /// The example an empty entry row shows while it is being typed in.
    var placeholderText: String {
        gtk_text_get_placeholder_text(gcast(gtk_editable_get_delegate(gcast(entry)))).map { String(cString: $0) } ?? ""
    }

    /// Replaces the example an empty entry row shows.
    func setPlaceholder(_ placeholder: String) {
        gtk_text_set_placeholder_text(gcast(gtk_editable_get_delegate(gcast(entry))), placeholder)
    }

    /// The hint under the field, if it has one.
    var hintText: String? { message.hint.isEmpty ? nil : message.hint }

    /// Replaces the hint; an empty hint leaves the line blank.
    func setHint(_ hint: String) {
        message.hint = hint
    }

    /// The error the field shows, if any.
    var errorText: String? { message.error }

    /// Shows `message` in place of the hint (nil clears it) and marks the row.
    func showError(_ error: String?) {
        message.error = error
        if error == nil { gtk_widget_remove_css_class(entry, "error") } else { gtk_widget_add_css_class(entry, "error") }
    }

    /// The warning the field shows (when it shows no error), if any.
    var warningText: String? { message.error == nil ? message.warning : nil }

    /// Shows `warning` in place of the hint while the field shows no error (nil clears it): something
    /// to know that does not keep the form from being saved.
    func showWarning(_ warning: String?) {
        message.warning = warning
    }

    func setShown(_ shown: Bool) {
        gtk_widget_set_visible(widget, shown.gboolean)
    }

    var isShown: Bool { Bool(gboolean: gtk_widget_get_visible(widget)) }

    /// Runs `handler` whenever the user edits the text, or picks another choice.
    func onChange(_ handler: @escaping @MainActor () -> Void) {
        if isChoice {
            connectSignal(entry, "notify::selected") { (_: UnsafeMutableRawPointer?) in handler() }
        } else {
            connectSignal(entry, "changed") { handler() }
        }
    }
}
