import CGtk
import GtkKit
import PrinterKit

/// The printer dialog's keyboard: Escape and Ctrl+W close it (Enter is Add/Save, its default
/// widget), and it opens with the keyboard on the first field to fill in.
extension PrinterDialog {
    /// Closes the dialog on Escape or Ctrl+W, as GNOME dialogs do.
    func closeOnEscape() {
        let controller = gtk_shortcut_controller_new()!
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape|<Control>w"), gtk_named_action_new("window.close"))
        gtk_shortcut_controller_add_shortcut(gcast(controller), shortcut)
        gtk_widget_add_controller(window, controller)
    }

    /// The first field shown that still needs filling in (an empty name, address, access code,
    /// URL: what validation finds wrong), else the name.
    var firstEmptyField: FormField {
        guard case .failure(let problems) = draft.printers() else { return name }
        return fieldsByProblem.first { field, formField in
            field != .kind && field != .cameras && formField.isShown && problems[field] != nil
        }?.1 ?? name
    }

    /// Puts the keyboard on `field`'s row.
    func focus(_ field: FormField) {
        gtk_widget_grab_focus(field.entry)
    }
}
