import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// Adding, editing, testing and removing printers: the Add/Edit Printer dialog, discovery while
/// the Add dialog or the welcome page is open, the connection test, the removal confirmation (from
/// Edit Printer and Preferences; closing a tab only closes it), and what each does to the saved
/// list, the tabs and the mini windows (the Preferences window's Printers page included). The dialog,
/// the listener and the confirmation are its own.
@MainActor
final class PrinterEditor {
    /// The Add/Edit Printer dialog while it is open.
    private(set) weak var openDialog: PrinterDialog?
    /// The listener that runs while the Add Printer dialog or the welcome page is open.
    private(set) var discovery: PrinterDiscovery?
    /// The welcome page's list of printers on the network, while the page shows.
    private weak var welcomeList: DiscoveredPrinterList?
    /// Whether an Add Printer dialog is open (it takes what discovery hears; the welcome page it
    /// covers is brought up to date when it closes).
    private var addDialogOpen = false
    /// What discovery heard last.
    private var heard: [DiscoveredPrinter] = []
    /// The confirmation shown by the last request to remove a printer, while it is open.
    private(set) var pendingRemoval: OpaquePointer?

    private unowned let library: PrinterLibrary
    private let sessions: SessionRegistry
    private let miniWindows: MiniWindows
    private let discoveryConfiguration: PrinterDiscovery.Configuration
    /// The main window, while it is open: the tabs that show the printers.
    private let mainWindow: @MainActor () -> MainWindow?

    init(library: PrinterLibrary, sessions: SessionRegistry, miniWindows: MiniWindows,
         discovery: PrinterDiscovery.Configuration, mainWindow: @escaping @MainActor () -> MainWindow?) {
        self.library = library
        self.sessions = sessions
        self.miniWindows = miniWindows
        discoveryConfiguration = discovery
        self.mainWindow = mainWindow
    }

    /// Opens the Add Printer dialog (`printer` nil) or the Edit Printer dialog.
    func showDialog(editing printer: Printer?, focusing field: PrinterChoice.Field? = nil) {
        let others = Set(library.config.printers.filter { $0.id != printer?.id }.map(\.name))
        let dialog = PrinterDialog(parent: mainWindow()?.window, editing: printer, secretsPlace: library.store.secretsPlace(for: printer),
                                   otherNames: others)
        let answer: @MainActor (SecretsPlace, Bool) -> Void = { [weak dialog] place, canTake in
            dialog?.setSecretsPlace(place, keyringCanTake: canTake)
        }
        library.askWhereSecretsGo(for: printer, answer)
        dialog.onMoveSecrets = { [weak self] in
            guard let self, let printer else { return }
            library.moveSecretsToKeyring([printer.id])
            library.askWhereSecretsGo(for: printer, answer)  // after the move, on the same queue
        }
        dialog.onTest = { [weak self] source, answer in self?.testConnection(source, answer: answer) }
        dialog.onSave = { [weak self] saved in saved.forEach { self?.save($0) } }
        if let printer {
            dialog.onRemove = { [weak self, weak dialog] in
                guard let self, let dialog, let saved = library.printer(id: printer.id) else { return }
                confirmRemoval(of: saved, over: dialog.window) { [weak dialog] in
                    // Once the question, over the dialog, is done with its answer.
                    MainLoopExecutor.main.runOnMainActor { if let dialog { gtk_window_destroy(gcast(dialog.window)) } }
                }
            }
        }
        if printer == nil {
            addDialogOpen = true
            startDiscovery()
            sayWhetherListening(dialog.discovered)
            connectSignal(dialog.window, "destroy") { [weak self] in
                guard let self else { return }
                addDialogOpen = false
                welcomeList?.show(heard)
                stopDiscoveryIfUnwatched()
            }
        }
        openDialog = dialog
        dialog.present(focusing: field)
    }

    func save(_ printer: Printer) {
        guard let window = mainWindow(), let shown = try? PrinterCameras(printer: printer) else { return }
        let existing = window.tabs.page(id: printer.id)
        let position = existing.flatMap { window.tabs.position(of: $0) }
        library.upsert(printer)
        if let existing {
            // Edited: the old session (old address or code) goes, the tab reopens with the new one.
            miniWindows.close(printer.id)
            window.close(existing)
        }
        // The demo camera made way for the first real printer.
        for demo in window.tabs.all where demo.printer.isDemo {
            close(demo)
        }
        window.open(shown, select: true, at: position)
        library.reorder(window.tabs.all.map(\.printerID))
    }

    /// The saved printers were replaced by those of a file edited outside Layerwatch (`before`:
    /// those held until then): the tab of a printer no longer saved closes, with its mini window;
    /// one whose name or cameras changed reopens where it was (its old session goes); a new one
    /// opens; the saved printers' tabs take the file's order.
    func followOutsideEdit(before: [Printer]) {
        guard let window = mainWindow() else { return }
        for page in window.tabs.all where before.contains(where: { $0.id == page.printerID }) && library.printer(id: page.printerID) == nil {
            close(page)
        }
        var next = 0
        for printer in library.config.printers {
            guard let shown = try? PrinterCameras(printer: printer) else { continue }
            if let page = window.tabs.page(id: printer.id), page.printer == shown {
                if window.tabs.position(of: page) != next { window.tabs.move(page, to: next) }
            } else {
                let old = window.tabs.page(id: printer.id)
                let selected = old != nil && window.tabs.selected === old
                if let old { close(old) }
                window.open(shown, select: selected, at: next)
            }
            next += 1
        }
    }

    /// Closes a tab as its close button or Ctrl+W asks, without a question: a saved printer's tab
    /// only closes (the printer stays saved and watched; the Printers menu opens it again); any
    /// other tab (the demo, a camera from the command line) closes for good, with its mini window.
    func closeTab(_ page: PrinterPage) {
        guard library.printer(id: page.printerID) != nil, let window = mainWindow() else { return close(page) }
        window.closeTab(page)
    }

    /// Asks over `parent` (the Edit Printer dialog, the Preferences window) before removing a saved
    /// printer: its settings and the secrets it holds (`RemovalText`), its tab and its mini
    /// window; `removed` runs once it is removed.
    func confirmRemoval(of printer: Printer, over parent: UnsafeMutablePointer<GtkWidget>,
                        removed: @escaping @MainActor () -> Void = {}) {
        let id = printer.id
        let dialog = DestructiveQuestion.present(over: parent, heading: String(format: tr("Remove “%@”?"), printer.name),
                                                 body: RemovalText.body(for: printer), action: tr("Remove")) { [weak self] in
            guard let self else { return }
            library.remove(id: id)
            if let page = mainWindow()?.tabs.page(id: id) { close(page) } else { miniWindows.close(id) }
            removed()
        }
        connectSignal(dialog, "destroy") { [weak self] in self?.pendingRemoval = nil }
        pendingRemoval = dialog
    }

    /// What the Preferences window's Printers page does: reorders, edits and removes saved printers.
    var preferencesActions: PrinterPreferences.Actions {
        PrinterPreferences.Actions(
            move: { [weak self] id, offset in self?.move(id, by: offset) },
            edit: { [weak self] id in
                guard let self, let printer = library.printer(id: id) else { return }
                showDialog(editing: printer)
            },
            remove: { [weak self] id, parent in
                guard let self, let printer = library.printer(id: id) else { return }
                confirmRemoval(of: printer, over: parent)
            })
    }

    /// Swaps the printer with its neighbour in the saved order: its tab moves (and the tabs' order
    /// is saved), or, with no tab to move, the saved order only.
    private func move(_ id: UUID, by offset: Int) {
        var ids = library.config.printers.map(\.id)
        guard let index = ids.firstIndex(of: id), ids.indices.contains(index + offset) else { return }
        ids.swapAt(index, index + offset)
        if let tabs = mainWindow()?.tabs, let page = tabs.page(id: id), let neighbour = tabs.page(id: ids[index]),
           let position = tabs.position(of: neighbour) {
            tabs.move(page, to: position)
        } else {
            library.reorder(ids)
        }
    }

    /// Closes the page's tab and its mini window.
    func close(_ page: PrinterPage) {
        miniWindows.close(page.printerID)
        mainWindow()?.close(page)
    }

    /// "Test Connection": the tab's running session answers if the printer is already streaming
    /// (a second probe would be a second client: nil); otherwise a short probe runs off the main loop.
    private func testConnection(_ source: StreamSource, answer: @escaping @MainActor (StreamProbe.Report?) -> Void) {
        if sessions.existingSession(for: source)?.state == .live { return answer(nil) }
        DispatchQueue.global(qos: .userInitiated).async {
            let report = StreamProbe.run(source: source, frames: 2, timeout: 10, terms: Printer.cameraTerms(of: source))
            MainLoopExecutor.main.runOnMainActor { answer(report) }
        }
    }

    /// Lists the printers on the network in `list` (the welcome page's) while it shows, or stops.
    func listDiscovered(in list: DiscoveredPrinterList?) {
        welcomeList = list
        if let list {
            startDiscovery()
            sayWhetherListening(list)
        } else {
            stopDiscoveryIfUnwatched()
        }
    }

    /// Tells `list` whether the listener listens: on no port, no printer can be heard.
    private func sayWhetherListening(_ list: DiscoveredPrinterList) {
        if case .failed(let failures)? = discovery?.state { list.showCannotListen(failures) } else { list.showListening() }
    }

    /// Opens the Add Printer dialog filled in from a printer the welcome page listed.
    func add(_ found: DiscoveredPrinter) {
        showDialog(editing: nil)
        openDialog?.prefill(from: found)
    }

    /// Starts the one listener (if it is not running; if it is, it asks at once), which hands
    /// what it hears to the Add Printer dialog and the welcome page, whichever is open.
    private func startDiscovery() {
        if let discovery { return discovery.askNow() }
        let discovery = PrinterDiscovery(configuration: discoveryConfiguration, executor: MainLoopExecutor.main) { [weak self] printers in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.heard = printers
                if self.addDialogOpen { self.openDialog?.showDiscovered(printers) } else { self.welcomeList?.show(printers) }
            }
        }
        discovery.start()
        self.discovery = discovery
    }

    /// Stops the listener once neither an Add Printer dialog nor the welcome page shows.
    private func stopDiscoveryIfUnwatched() {
        guard welcomeList == nil, !addDialogOpen else { return }
        discovery?.stop()
        discovery = nil
        heard = []
    }
}
