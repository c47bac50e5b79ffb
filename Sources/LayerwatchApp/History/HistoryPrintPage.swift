import CGtk
import GtkKit
import JournalKit
import StreamKit

/// The page of one print of the journal, which the History page shows when its row is activated.
/// A stand-in naming the job; the print's own page (its pictures, events and videos) replaces it.
@MainActor
final class HistoryPrintPage {
    let widget: UnsafeMutablePointer<GtkWidget>

    init(print: JournalPrint, store: JournalStore) {
        widget = gtk_label_new(print.job ?? tr("Unnamed print"))
        gtk_widget_set_vexpand(widget, true.gboolean)
    }
}
