import CGtk

/// A new label the way the app's forms, cards and banners use one: its style classes, text that
/// wraps, and text set flush with the leading edge (forms, banners) or centred (cards).
@MainActor
public func makeLabel(_ text: String? = nil, classes: [String] = [], wraps: Bool = false,
                      leading: Bool = false) -> UnsafeMutablePointer<GtkWidget> {
    let label = gtk_label_new(text)!
    for name in classes { gtk_widget_add_css_class(label, name) }
    gtk_label_set_wrap(gcast(label), wraps.gboolean)
    if leading { gtk_label_set_xalign(gcast(label), 0) }
    return label
}
