import CGtk
import GtkKit

/// A drop-down offering `titles`, the first chosen (a choice of one outside a form's rows).
@MainActor
func makeDropDown(_ titles: [String]) -> UnsafeMutablePointer<GtkWidget> {
    gtk_drop_down_new(gcast(makeStringList(titles)), nil)  // the drop-down takes the list
}

/// Makes `titles` the choices a combo row offers, the first chosen.
@MainActor
func setChoices(of row: UnsafeMutablePointer<GtkWidget>, _ titles: [String]) {
    let model = GObjectRef(adopting: makeStringList(titles))
    withExtendedLifetime(model) { adw_combo_row_set_model(gcast(row), gcast(model.pointer)) }
}

/// A new string list of `titles` (the caller owns it).
@MainActor
private func makeStringList(_ titles: [String]) -> OpaquePointer {
    withCStringArray(titles) { gtk_string_list_new($0) }!
}

/// Makes `titles` the choices `dropDown` offers (the first chosen: set the choice after).
@MainActor
func setChoices(ofDropDown dropDown: UnsafeMutablePointer<GtkWidget>, _ titles: [String]) {
    let model = GObjectRef(adopting: makeStringList(titles))
    withExtendedLifetime(model) { gtk_drop_down_set_model(gcast(dropDown), gcast(model.pointer)) }
}
