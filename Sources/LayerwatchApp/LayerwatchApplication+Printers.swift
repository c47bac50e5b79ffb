import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// Adding, editing, testing and removing printers: the dialog, the confirmation, discovery while the
/// dialog is open, and what each does to the tabs and the saved list.
extension LayerwatchApplication {
    func showDialog(editing printer: Printer?) {
        let dialog = PrinterDialog(parent: window?.window, editing: printer, secretsNote: library.store.secretsNotice)
        library.askWhereSecretsGo { [weak dialog] notice in dialog?.setSecretsNote(notice) }
        dialog.onTest = { [weak self] source, answer in self?.testConnection(source, answer: answer) }
        dialog.onSave = { [weak self] saved in saved.forEach { self?.save($0) } }
        if printer == nil { startDiscovery(for: dialog) }
        connectSignal(dialog.window, "destroy") { [weak self] in self?.stopDiscovery() }
        openDialog = dialog
        dialog.present()
    }

    func save(_ printer: Printer) {
        guard let window, let cameras = try? Camera.all(of: printer) else { return }
        let existing = window.tabs.page(id: printer.id)
        let position = existing.flatMap { window.tabs.position(of: $0) }
        library.upsert(printer)
        if let existing {
            // Edited: the old session (old address or code) goes, the tab reopens with the new one.
            miniWindows[printer.id]?.close()
            window.tabs.remove(existing)
            existing.sessions.forEach { sessions.forget($0.source) }
        }
        // The demo camera made way for the first real printer.
        for demo in window.tabs.all where demo.camera.isDemo {
            close(demo)
        }
        addTab(cameras, select: true, at: position)
        library.reorder(window.tabs.all.map(\.camera.printerID))
    }

    func confirmClose(_ page: PrinterPage) {
        guard library.printer(id: page.camera.printerID) != nil, let window else { return close(page) }
        let dialog = adw_message_dialog_new(gcast(window.window), String(format: tr("Remove “%@”?"), page.name),
                                            tr("Its settings and access code will be deleted from this computer."))!
        adw_message_dialog_add_response(gcast(dialog), "cancel", tr("Cancel"))
        adw_message_dialog_add_response(gcast(dialog), "remove", tr("Remove"))
        adw_message_dialog_set_response_appearance(gcast(dialog), "remove", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(gcast(dialog), "cancel")
        adw_message_dialog_set_close_response(gcast(dialog), "cancel")
        connectSignal(dialog, "response::remove") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            library.remove(id: page.camera.printerID)
            close(page)
        }
        connectSignal(dialog, "destroy") { [weak self] in self?.pendingRemoval = nil }
        pendingRemoval = OpaquePointer(dialog)
        gtk_window_present(gcast(dialog))
    }

    func close(_ page: PrinterPage) {
        miniWindows[page.camera.printerID]?.close()
        window?.tabs.remove(page)
        page.sessions.forEach { sessions.forget($0.source) }
    }

    /// "Test Connection": the tab's running session answers if the printer is already streaming
    /// (a second probe would be a second client); otherwise a short probe runs off the main loop.
    func testConnection(_ source: StreamSource, answer: @escaping @MainActor (String) -> Void) {
        if sessions.existingSession(for: source)?.state == .live {
            return answer(tr("Connected — this camera is streaming in its tab right now."))
        }
        DispatchQueue.global(qos: .userInitiated).async {
            let report = StreamProbe.run(source: source, frames: 2, timeout: 10)
            let text = ConnectionTestText.describe(report)
            MainLoopExecutor.main.runOnMainActor { answer(text) }
        }
    }

    func startDiscovery(for dialog: PrinterDialog) {
        let discovery = PrinterDiscovery(configuration: discoveryConfiguration, executor: MainLoopExecutor.main) { [weak dialog] printers in
            MainActor.assumeIsolated { dialog?.showDiscovered(printers) }
        }
        discovery.start()
        self.discovery = discovery
    }

    func stopDiscovery() {
        discovery?.stop()
        discovery = nil
    }
}
