import CGtk
import Foundation
import GtkKit
import StreamKit

/// One of a print's pictures on its History page, under its caption: a spinner until it is read,
/// then the picture — a click opens it in the desktop's application for pictures (the app's Open
/// action, as a saved file's toast does) — or, in its place, why there is none.
@MainActor
final class PrintPictureView {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The GtkPicture showing the decoded picture.
    let picture = gtk_picture_new()!
    /// Says why no picture shows.
    let placeholderLabel = makeLabel(classes: ["dim-label"], wraps: true)
    private let stack = gtk_stack_new()!
    private let button = gtk_button_new()!

    /// A 16:9 box (a camera's usual shape), asking no width of its own: the flow box puts the two
    /// pictures side by side by their width request alone, whatever their size.
    private lazy var slot = AspectSlot(stack, ratio: 16.0 / 9.0)

    init(caption: String) {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        gtk_widget_set_size_request(widget, 200, -1)  // side by side from 412 wide, stacked below

        let spinner = gtk_spinner_new()!
        gtk_spinner_start(gcast(spinner))
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        gtk_stack_add_named(gcast(stack), spinner, "loading")

        gtk_button_set_child(gcast(button), picture)
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_add_css_class(button, "print-picture")
        setAccessibleLabel(button, caption)
        gtk_stack_add_named(gcast(stack), button, "picture")

        let missing = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        let icon = gtk_image_new_from_icon_name("image-missing-symbolic")!
        gtk_image_set_pixel_size(gcast(icon), 48)
        gtk_widget_add_css_class(icon, "dim-label")
        gtk_label_set_justify(gcast(placeholderLabel), GTK_JUSTIFY_CENTER)
        gtk_box_append(gcast(missing), icon)
        gtk_box_append(gcast(missing), placeholderLabel)
        gtk_widget_set_valign(missing, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(missing, 12)
        gtk_widget_set_margin_end(missing, 12)
        gtk_stack_add_named(gcast(stack), missing, "placeholder")

        gtk_widget_add_css_class(stack, "card")
        gtk_widget_set_overflow(stack, GTK_OVERFLOW_HIDDEN)  // the picture inside the card's round corners
        gtk_stack_set_visible_child_name(gcast(stack), "loading")
        gtk_box_append(gcast(widget), slot.widget)
        gtk_box_append(gcast(widget), makeLabel(caption, classes: ["caption-heading", "dim-label"]))
    }

    /// Whether the placeholder shows in the picture's place.
    var isPlaceholderShown: Bool {
        String(cString: gtk_stack_get_visible_child_name(gcast(stack))) == "placeholder"
    }

    /// Whether the picture was read (decoded, or found gone).
    var isLoaded: Bool {
        String(cString: gtk_stack_get_visible_child_name(gcast(stack))) != "loading"
    }

    func show(_ loaded: PrintPicture) {
        switch loaded {
        case .decoded(let texture, let file):
            gtk_picture_set_paintable(gcast(picture), texture.pointer)
            gtk_actionable_set_action_target_value(gcast(button), g_variant_new_string(file.path))
            gtk_actionable_set_action_name(gcast(button), Feature.openFile.actionName)
            gtk_widget_set_tooltip_text(button, String(format: tr("Open “%@”"), file.lastPathComponent))
            gtk_stack_set_visible_child_name(gcast(stack), "picture")
            return
        case .gone: gtk_label_set_text(gcast(placeholderLabel), tr("Picture no longer kept"))
        case .unreadable: gtk_label_set_text(gcast(placeholderLabel), tr("Picture could not be read"))
        case .notKept: gtk_label_set_text(gcast(placeholderLabel), tr("No picture kept"))
        }
        gtk_stack_set_visible_child_name(gcast(stack), "placeholder")
    }
}
