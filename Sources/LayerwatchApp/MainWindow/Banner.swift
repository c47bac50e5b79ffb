import CGtk
import GtkKit
import StreamKit

/// A strip at the top of the window for a problem that must not go unnoticed (libadwaita 1.2 has
/// no AdwBanner): a message and a Dismiss button, sliding in and out.
@MainActor
final class Banner {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>

    init() {
        widget = gtk_revealer_new()
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "banner")
        label = makeLabel(wraps: true, leading: true)
        gtk_widget_set_hexpand(label, true.gboolean)
        let dismiss = gtk_button_new_with_label(tr("Dismiss"))!
        gtk_widget_set_valign(dismiss, GTK_ALIGN_CENTER)
        connectSignal(dismiss, "clicked") { [widget] in gtk_revealer_set_reveal_child(gcast(widget), false.gboolean) }
        gtk_box_append(gcast(box), label)
        gtk_box_append(gcast(box), dismiss)
        gtk_revealer_set_child(gcast(widget), box)
    }

    var text: String? {
        Bool(gboolean: gtk_revealer_get_reveal_child(gcast(widget))) ? String(cString: gtk_label_get_text(gcast(label))) : nil
    }

    func show(_ text: String) {
        gtk_label_set_text(gcast(label), text)
        gtk_revealer_set_reveal_child(gcast(widget), true.gboolean)
    }
}
