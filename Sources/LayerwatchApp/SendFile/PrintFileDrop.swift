import CGtk
import CameraKit
import Foundation
import GtkKit
import StatusKit
import StreamKit

/// Dropping a file on a view of a printer — its tab's page, its farm tile, its mini window — asks
/// to print it there: while a drag of files is over the view, the view is framed and its picture
/// says "Drop to print on Voron"; the drop activates the view's `printer.print-dropped-file`, so
/// it goes to that view's printer (and the farm's selection) as Print File… does. A file no printer
/// prints is refused at the drop, and the action tells why in a toast.
@MainActor
enum PrintFileDrop {
    /// Makes `widget` take dropped files for the printer called `name`, its hint shown over `surface`.
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, over surface: CameraSurface?, name: @escaping @MainActor () -> String) {
        let hint = makeLabel(classes: ["drop-hint", "osd", "title-3"], wraps: true)
        gtk_widget_set_halign(hint, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(hint, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(hint, false.gboolean)
        gtk_widget_set_can_target(hint, false.gboolean)
        surface?.addOverlay(hint)
        addFileDropTarget(to: widget, onHover: { over in
            if over {
                // TRANSLATORS: shown over a printer's picture while a file is dragged over it; %@ is the printer's name.
                gtk_label_set_text(gcast(hint), String(format: tr("Drop to print on %@"), name()))
                gtk_widget_add_css_class(widget, "print-drop")
            } else {
                gtk_widget_remove_css_class(widget, "print-drop")
            }
            gtk_widget_set_visible(hint, over.gboolean)
        }, onDrop: { files in
            guard let file = files.first else { return false }
            gtk_widget_activate_action_variant(widget, "printer.print-dropped-file", g_variant_new_string(file.path))
            return PrintFile.kind(ofName: file.lastPathComponent) != nil
        })
    }
}
