import Foundation
import PrinterKit
import StreamKit

/// Print notifications: the notifier, bringing up the printer a notification's click names
/// (`app.show-printer`, a feature), and each printer's switch.
extension LayerwatchApplication {
    /// Makes the notifier (it follows the printers from `syncPrinterStatus`).
    func startNotifications(ledger: NotificationLedger) {
        notifier = PrintNotifier(application: application, hub: statusHub, ledger: ledger,
                                 printer: { [weak self] id in self?.library.printer(id: id) },
                                 picture: { [weak self] id in self?.shownFrame(of: id) })
    }

    /// Presents the main window (opening it if need be) with the printer's tab selected.
    func showPrinter(_ id: UUID) {
        activate()
        library.whenSecretsLoaded { [weak self] in
            guard let window = self?.window, let page = window.tabs.page(id: id) else { return }
            window.tabs.select(page)
            window.present()
        }
    }

    /// Switches the selected printer's notifications on or off, and saves it.
    func setSelectedPrinterNotifies(_ on: Bool) {
        guard var printer = selectedPrinter, printer.notifies != on else { return }
        printer.notifies = on
        library.upsert(printer)
    }

    /// The newest picture a view of the printer shows: its tab's, or its mini window's.
    private func shownFrame(of id: UUID) -> VideoFrame? {
        [window?.tabs.page(id: id)?.surface.shownFrame, miniWindows[id]?.surface.shownFrame]
            .compactMap { $0 }.max { $0.decodedAt < $1.decodedAt }
    }
}
