import CGtk
import GtkKit

/// A drop-down offering `titles`, the first chosen (a choice of one outside a form's rows).
@MainActor
func makeDropDown(_ titles: [String]) -> UnsafeMutablePointer<GtkWidget> {
    let model = withCStringArray(titles) { gtk_string_list_new($0) }!
    return gtk_drop_down_new(gcast(model), nil)
}
