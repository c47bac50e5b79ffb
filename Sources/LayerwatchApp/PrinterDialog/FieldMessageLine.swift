import CGtk
import GtkKit

/// The line under a form field: its hint, or while the field is wrong the error in the hint's
/// place (or, while nothing is wrong but something is worth knowing, a warning there, in the
/// warning colour). Both sit in one homogeneous stack with a blank line, so the line is never
/// shorter than one line nor than its hint, and showing or clearing an error does not move the
/// rows below.
@MainActor
final class FieldMessageLine {
    let widget = gtk_stack_new()!
    private let hintLabel = makeLabel(classes: ["dim-label", "caption"], wraps: true, leading: true)
    private let errorLabel = makeLabel(classes: ["error", "caption"], wraps: true, leading: true)

    init() {
        gtk_stack_set_vhomogeneous(gcast(widget), true.gboolean)
        gtk_stack_set_hhomogeneous(gcast(widget), false.gboolean)
        gtk_widget_add_css_class(widget, "field-message")
        for label in [hintLabel, errorLabel] {
            gtk_label_set_wrap_mode(gcast(label), PANGO_WRAP_WORD_CHAR)
            gtk_label_set_yalign(gcast(label), 0)  // a short error starts where the hint did
            gtk_stack_add_child(gcast(widget), label)
        }
        // Reserves one line for a field without a hint, so its error has room too.
        gtk_stack_add_child(gcast(widget), makeLabel(" ", classes: ["caption"]))
        gtk_stack_set_visible_child(gcast(widget), hintLabel)
    }

    /// Makes the hint and the error what a screen reader says about `row` after its title.
    func describe(_ row: UnsafeMutablePointer<GtkWidget>) {
        setAccessibleDescription(row, describedBy: hintLabel, and: errorLabel)
    }

    var hint: String {
        get { String(cString: gtk_label_get_text(gcast(hintLabel))) }
        set { gtk_label_set_text(gcast(hintLabel), newValue) }
    }

    /// The error shown in the hint's place; nil shows the warning or the hint again.
    var error: String? {
        didSet { showLine() }
    }

    /// The warning shown in the hint's place while there is no error; nil shows the hint again.
    var warning: String? {
        didSet { showLine() }
    }

    /// The error, else the warning (in the same label, coloured as a warning), else the hint.
    private func showLine() {
        gtk_label_set_text(gcast(errorLabel), error ?? warning ?? "")
        if error == nil {
            gtk_widget_remove_css_class(errorLabel, "error")
            gtk_widget_add_css_class(errorLabel, "warning")
        } else {
            gtk_widget_remove_css_class(errorLabel, "warning")
            gtk_widget_add_css_class(errorLabel, "error")
        }
        gtk_stack_set_visible_child(gcast(widget), error == nil && warning == nil ? hintLabel : errorLabel)
    }
}
