import CGtk
import GtkKit
import JournalKit
import StreamKit

/// The top of a print's History page: the job's name as its title, and under it the result in
/// words with its icon, in the result's colour (a failure with the printer's own words), and
/// whether the print was taken from the printer's own history.
@MainActor
enum PrintHeading {
    static func make(_ print: JournalPrint) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        let title = makeLabel(print.job ?? tr("Unnamed Job"), classes: ["title-1"], wraps: true)
        gtk_label_set_wrap_mode(gcast(title), PANGO_WRAP_WORD_CHAR)  // a file name without spaces breaks too
        gtk_label_set_justify(gcast(title), GTK_JUSTIFY_CENTER)
        gtk_box_append(gcast(box), title)

        let result = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_halign(result, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(result, PrintResultLook.styleClass(print.result))
        gtk_box_append(gcast(result), gtk_image_new_from_icon_name(PrintResultLook.icon(print.result)))
        gtk_box_append(gcast(result), makeLabel(PrintResultLook.words(print.result), classes: ["heading"]))
        gtk_box_append(gcast(box), result)

        if print.result == .failed, let error = print.error {
            let words = makeLabel(error, wraps: true)
            gtk_label_set_justify(gcast(words), GTK_JUSTIFY_CENTER)
            gtk_box_append(gcast(box), words)
        }
        if print.fromPrinterHistory {
            gtk_box_append(gcast(box), makeLabel(tr("Taken from the printer's own history"), classes: ["dim-label", "caption"], wraps: true))
        }
        gtk_widget_set_margin_bottom(box, 6)
        return box
    }
}
