import CGtk
import Foundation
import GtkKit
import StatusKit
import StreamKit

/// Print File for the whole app: a file chosen or dropped on a view of one printer (or the farm's
/// selected printers) opens its confirmation (`PrintFileDialog`) over that view's window, or is
/// refused there in a toast when it is not a file a printer prints. One confirmation at a time: a
/// new one replaces one not sent yet, never one sending.
@MainActor
final class PrintFiles {
    private let hub: PrinterStatusHub
    /// The confirmation while it is open.
    private(set) weak var dialog: PrintFileDialog?
    /// Called when a printer took a file and was asked to print it: its id and the file's name
    /// (the journal marks that print started from Layerwatch).
    var onStarted: @MainActor (UUID, String) -> Void = { _, _ in }
    /// How long a printer that took a file and was asked to print it has to report the print.
    var reportTimeout = PrintFileSending.reportTimeout

    init(hub: PrinterStatusHub) {
        self.hub = hub
    }

    /// Opens the confirmation of printing `url` on `targets` over `window`; `toast` speaks there.
    func confirm(_ url: URL, on targets: [PrintTarget], over window: UnsafeMutablePointer<GtkWidget>,
                 toast: @escaping @MainActor (String) -> Void) {
        let file: PrintFile
        do {
            file = try PrintFile(url: url)
        } catch {
            return toast(error.userMessage)
        }
        if let dialog, dialog.isSending {
            // The file under way goes on: its dialog comes up, the new one waits for the user.
            gtk_window_present(gcast(dialog.window))
            return toast(tr("A file is being sent: wait for it or cancel it, then print the next."))
        }
        if let dialog { gtk_window_destroy(gcast(dialog.window)) }
        let dialog = PrintFileDialog(file: file, targets: targets, over: window, hub: hub, reportTimeout: reportTimeout,
                                     toast: toast, started: onStarted)
        self.dialog = dialog
    }
}
