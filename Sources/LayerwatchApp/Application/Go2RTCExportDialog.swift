import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// "Export for go2rtc…" in one call: a save dialog, then the saved printers as a go2rtc.yaml
/// (`Go2RTCExport`) and a toast saying where, or why not. Nothing of it outlives the answer.
@MainActor
enum Go2RTCExportDialog {
    /// Asks where to save go2rtc.yaml (GTK 4.8's native chooser, a portal's where there is one),
    /// then writes it there.
    static func present(over window: MainWindow, library: PrinterLibrary) {
        // GTK's own (translated) "Save" and "Cancel" buttons.
        let chooser = gtk_file_chooser_native_new(tr("Export for go2rtc"), gcast(window.window),
                                                  GTK_FILE_CHOOSER_ACTION_SAVE, nil, nil)!
        gtk_native_dialog_set_modal(gcast(chooser), true.gboolean)
        gtk_file_chooser_set_current_name(gcast(chooser), "go2rtc.yaml")
        // Our reference keeps the chooser until it answers; the emission holds its own meanwhile.
        var owner: GObjectRef? = GObjectRef(adopting: chooser)
        connectInt32Signal(chooser, "response") { [weak window] response in
            guard let chooser = owner?.pointer else { return }
            defer { owner = nil }
            guard let window, response == GTK_RESPONSE_ACCEPT.rawValue,
                  let file = gtk_file_chooser_get_file(gcast(chooser)).map({ GObjectRef(adopting: $0) }) else { return }
            guard let path = String(takingGLibString: g_file_get_path(file.pointer)) else {
                window.toast(tr("go2rtc.yaml can only be saved in a local folder."))
                return
            }
            export(library, to: URL(fileURLWithPath: path), toastIn: window)
        }
        gtk_native_dialog_show(gcast(chooser))
    }

    /// Writes the saved printers' go2rtc.yaml to `url` (mode 0600, once the keyring's codes are in)
    /// and says where in a toast, or why it could not.
    static func export(_ library: PrinterLibrary, to url: URL, toastIn window: MainWindow) {
        library.whenSecretsLoaded { [weak library, weak window] in
            guard let library else { return }
            do {
                try Go2RTCExport.write(library.config.printers, to: url)
                window?.toast(String(format: tr("Saved the go2rtc configuration as %@"), url.path))
            } catch {
                window?.toast(String(format: tr("Could not export for go2rtc: %@"), "\(error)"))
            }
        }
    }
}
