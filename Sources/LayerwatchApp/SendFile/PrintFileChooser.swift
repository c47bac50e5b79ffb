import CGtk
import Foundation
import GtkKit
import StreamKit

/// Print File…'s file chooser: GTK's native one (the portal's where there is one), modal to the
/// window it was asked in, showing only the files a printer prints.
@MainActor
enum PrintFileChooser {
    /// Asks for a file over `window`, then hands it to `chosen`.
    static func present(over window: UnsafeMutablePointer<GtkWidget>, chosen: @escaping @MainActor (URL) -> Void) {
        // GTK's own (translated) "Open" and "Cancel" buttons.
        let chooser = gtk_file_chooser_native_new(tr("Print File"), gcast(window), GTK_FILE_CHOOSER_ACTION_OPEN, nil, nil)!
        gtk_native_dialog_set_modal(gcast(chooser), true.gboolean)
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, tr("G-code and 3MF files"))
        for pattern in ["*.gcode", "*.gco", "*.g", "*.bgcode", "*.3mf"] { gtk_file_filter_add_suffix(filter, String(pattern.dropFirst(2))) }
        gtk_file_chooser_add_filter(gcast(chooser), filter)
        // Our reference keeps the chooser until it answers; the emission holds its own meanwhile.
        var owner: GObjectRef? = GObjectRef(adopting: chooser)
        connectInt32Signal(chooser, "response") { response in
            guard let chooser = owner?.pointer else { return }
            defer { owner = nil }
            guard response == GTK_RESPONSE_ACCEPT.rawValue,
                  let file = gtk_file_chooser_get_file(gcast(chooser)).map({ GObjectRef(adopting: $0) }),
                  let path = String(takingGLibString: g_file_get_path(file.pointer)) else { return }
            chosen(URL(fileURLWithPath: path))
        }
        gtk_native_dialog_show(gcast(chooser))
    }
}
