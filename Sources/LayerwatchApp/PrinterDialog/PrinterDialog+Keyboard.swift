import CGtk
import GtkKit
import PrinterKit

/// The printer dialog's keyboard: Escape and Ctrl+W close it; Enter in a text row saves (Add/Save
/// is the default widget for the rest), or while the form cannot be saved says why under the first
/// field that keeps it so and puts the keyboard there; it opens with the keyboard on the first
/// field to fill in.
extension PrinterDialog {
    /// Closes the dialog on Escape or Ctrl+W, as GNOME dialogs do.
    func closeOnEscape() {
        let controller = gtk_shortcut_controller_new()!
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape|<Control>w"), gtk_named_action_new("window.close"))
        gtk_shortcut_controller_add_shortcut(gcast(controller), shortcut)
        gtk_widget_add_controller(window, controller)
    }

    /// Enter in a text field: a pasted address is split first (which may make the form valid), then
    /// the form is saved, or the first field that keeps it from being saved shows why. The fields
    /// answer Enter themselves: the default widget, grey until the address is split, would not.
    func answerEnter() {
        for (_, formField) in fieldsByProblem where formField.isTextEntry {
            adw_entry_row_set_activates_default(gcast(formField.entry), false.gboolean)
            connectSignal(formField.entry, "entry-activated") { [weak self] in
                guard let self else { return }
                splitAddress()
                revalidate()
                let problems = blockingProblems
                guard let blocking = fieldsByProblem.first(where: { $1.isShown && problems[$0] != nil }) else { return save() }
                leftEdited.insert(blocking.0)
                showProblems()
                focus(blocking.1)
            }
        }
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

    /// Puts the keyboard on `field`'s row and scrolls the form so the whole field shows, its
    /// message under it too (the form's viewport alone would bring only the row into sight).
    func reveal(_ field: FormField) {
        focus(field)
        guard let scroller = gtk_widget_get_ancestor(field.widget, gtk_scrolled_window_get_type()),
              let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scroller)) else { return }
        var bounds = graphene_rect_t()
        guard Bool(gboolean: gtk_widget_compute_bounds(field.widget, scroller, &bounds)) else { return }
        let top = Double(bounds.origin.y), below = top + Double(bounds.size.height) - Double(gtk_widget_get_height(scroller))
        let value = gtk_adjustment_get_value(adjustment)
        if top < 0 {
            gtk_adjustment_set_value(adjustment, value + top)
        } else if below > 0 {
            gtk_adjustment_set_value(adjustment, value + min(below, top))
        }
    }
}
