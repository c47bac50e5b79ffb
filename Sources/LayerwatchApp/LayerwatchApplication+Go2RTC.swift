import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// "Export for go2rtc…": a save dialog, then the saved printers as a go2rtc.yaml (`Go2RTCExport`).
extension LayerwatchApplication {
    /// Asks where to save go2rtc.yaml (GTK 4.8's native chooser, a portal's where there is one),
    /// then writes it there.
    func chooseGo2RTCExport() {
        guard let window else { return }
        // GTK's own (translated) "Save" and "Cancel" buttons.
        let chooser = gtk_file_chooser_native_new(tr("Export for go2rtc"), gcast(window.window),
                                                  GTK_FILE_CHOOSER_ACTION_SAVE, nil, nil)!
        gtk_native_dialog_set_modal(gcast(chooser), true.gboolean)
        gtk_file_chooser_set_current_name(gcast(chooser), "go2rtc.yaml")
        // Our reference keeps the chooser until it answers; the emission holds its own meanwhile.
        var owner: GObjectRef? = GObjectRef(adopting: chooser)
        connectInt32Signal(chooser, "response") { [weak self] response in
            guard let chooser = owner?.pointer else { return }
            defer { owner = nil }
            guard response == GTK_RESPONSE_ACCEPT.rawValue,
                  let file = gtk_file_chooser_get_file(gcast(chooser)).map({ GObjectRef(adopting: $0) }) else { return }
            guard let path = String(takingGLibString: g_file_get_path(file.pointer)) else {
                self?.window?.toast(tr("go2rtc.yaml can only be saved in a local folder."))
                return
            }
            self?.exportGo2RTC(to: URL(fileURLWithPath: path))
        }
        gtk_native_dialog_show(gcast(chooser))
    }

    /// Writes the saved printers' go2rtc.yaml to `url` (mode 0600, once the keyring's codes are in)
    /// and says where in a toast, or why it could not.
    func exportGo2RTC(to url: URL) {
        library.whenSecretsLoaded { [weak self] in
            guard let self else { return }
            do {
                try Go2RTCExport.write(library.config.printers, to: url)
                window?.toast(String(format: tr("Saved the go2rtc configuration as %@"), url.path))
            } catch {
                window?.toast(String(format: tr("Could not export for go2rtc: %@"), "\(error)"))
            }
        }
    }
}
