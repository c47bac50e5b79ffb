import CGtk
import CLayerwatch
import GtkKit

/// One labelled text field of a form with its own error line underneath, so validation can say
/// exactly what is wrong where it is wrong.
@MainActor
final class FormField {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The entry (or other control) the user edits.
    let entry: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let error: UnsafeMutablePointer<GtkWidget>
    private var note: UnsafeMutablePointer<GtkWidget>?

    /// A text field: a plain entry, or a masked one with a reveal icon when `secret`.
    convenience init(title: String, secret: Bool = false, hint: String? = nil) {
        let entry: UnsafeMutablePointer<GtkWidget>
        if secret {
            entry = gtk_password_entry_new()
            gtk_password_entry_set_show_peek_icon(gcast(entry), true.gboolean)
        } else {
            entry = gtk_entry_new()
        }
        self.init(title: title, control: entry, hint: hint)
    }

    /// A field around any control (a drop-down, say).
    init(title: String, control: UnsafeMutablePointer<GtkWidget>, hint: String? = nil) {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
        entry = control
        label = makeLabel(title, classes: ["heading"], leading: true)
        setAccessibleLabel(control, labelledBy: label)
        error = makeLabel(classes: ["error", "caption"], wraps: true, leading: true)
        gtk_widget_set_visible(error, false.gboolean)
        for child in [label, control, error] { gtk_box_append(gcast(widget), child) }
        if let hint {
            let note = makeLabel(hint, classes: ["dim-label", "caption"], wraps: true, leading: true)
            gtk_box_append(gcast(widget), note)
            self.note = note
        }
    }

    /// The text of an entry field.
    var text: String {
        get { String(cString: gtk_editable_get_text(gcast(entry))) }
        set { gtk_editable_set_text(gcast(entry), newValue) }
    }

    var titleText: String { String(cString: gtk_label_get_text(gcast(label))) }

    /// Replaces the title above the field.
    func setTitle(_ title: String) {
        gtk_label_set_text(gcast(label), title)
    }

    /// Replaces the example an empty entry shows.
    func setPlaceholder(_ placeholder: String) {
        lw_set_string_property(entry, "placeholder-text", placeholder)
    }

    /// The hint under the field, if it shows one.
    var hintText: String? {
        note.flatMap { Bool(gboolean: gtk_widget_get_visible($0)) ? String(cString: gtk_label_get_text(gcast($0))) : nil }
    }

    /// Replaces the hint of a field made with one; an empty hint hides it.
    func setHint(_ hint: String) {
        guard let note else { return }
        gtk_label_set_text(gcast(note), hint)
        gtk_widget_set_visible(note, (!hint.isEmpty).gboolean)
    }

    var errorText: String? {
        Bool(gboolean: gtk_widget_get_visible(error)) ? String(cString: gtk_label_get_text(gcast(error))) : nil
    }

    /// Shows `message` under the field (nil clears it) and marks the entry.
    func showError(_ message: String?) {
        gtk_label_set_text(gcast(error), message ?? "")
        gtk_widget_set_visible(error, (message != nil).gboolean)
        if message == nil { gtk_widget_remove_css_class(entry, "error") } else { gtk_widget_add_css_class(entry, "error") }
    }

    func setShown(_ shown: Bool) {
        gtk_widget_set_visible(widget, shown.gboolean)
    }

    /// Runs `handler` whenever the user edits the text.
    func onChange(_ handler: @escaping @MainActor () -> Void) {
        connectSignal(entry, "changed") { handler() }
    }
}

/// A drop-down offering `titles`, the first chosen (a form's choice of one).
@MainActor
func makeDropDown(_ titles: [String]) -> UnsafeMutablePointer<GtkWidget> {
    let model = withCStringArray(titles) { gtk_string_list_new($0) }!
    return gtk_drop_down_new(gcast(model), nil)
}
