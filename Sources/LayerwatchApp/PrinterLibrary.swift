import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// The app's saved state (printers in tab order, selection, window size, open mini windows) and the
/// one place that writes it: every change is saved at once, atomically, through the ConfigStore —
/// off the main loop (the keyring and fsync can take a while), newest state first, one at a time.
@MainActor
final class PrinterLibrary {
    let store: ConfigStore
    private(set) var config: AppConfig
    private let saver = DispatchQueue(label: "layerwatch.config-save")
    /// The newest state waiting to be written; nil while nothing is waiting.
    private let pending = PendingConfig()
    /// A problem found while loading, for the window's banner.
    let loadProblem: String?
    /// Called with a sentence when a save failed (the file on disk is unchanged).
    var onSaveError: @MainActor (String) -> Void = { _ in }

    init(store: ConfigStore) {
        self.store = store
        let loaded = store.load()
        config = loaded.config
        loadProblem = loaded.problem
    }

    func printer(id: UUID) -> Printer? {
        config.printers.first { $0.id == id }
    }

    /// Adds a new printer at the end, or replaces the one with the same id.
    func upsert(_ printer: Printer) {
        if let index = config.printers.firstIndex(where: { $0.id == printer.id }) {
            config.printers[index] = printer
        } else {
            config.printers.append(printer)
        }
        save()
    }

    func remove(id: UUID) {
        config.printers.removeAll { $0.id == id }
        config.miniWindows.removeAll { $0.printerID == id }
        if config.selectedPrinterID == id { config.selectedPrinterID = nil }
        save()
    }

    /// Puts saved printers in the order their tabs now have (other tabs are ignored).
    func reorder(_ ids: [UUID]) {
        let ranks = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        let sorted = config.printers.sorted { (ranks[$0.id] ?? Int.max) < (ranks[$1.id] ?? Int.max) }
        guard sorted.map(\.id) != config.printers.map(\.id) else { return }
        config.printers = sorted
        save()
    }

    func select(_ id: UUID?) {
        guard config.selectedPrinterID != id, id.map({ printer(id: $0) != nil }) ?? true else { return }
        config.selectedPrinterID = id
        save()
    }

    func setWindow(_ window: AppConfig.Window) {
        guard config.window != window else { return }
        config.window = window
        save()
    }

    func setMiniWindow(_ mini: AppConfig.MiniWindow?, for id: UUID) {
        guard printer(id: id) != nil else { return }
        config.miniWindows.removeAll { $0.printerID == id }
        if let mini { config.miniWindows.append(mini) }
        save()
    }

    /// Remembers that the Wayland keep-above hint was shown, so it is shown once.
    func markKeepAboveHintShown() {
        guard !config.keepAboveHintShown else { return }
        config.keepAboveHintShown = true
        save()
    }

    /// Waits until every change so far is on disk (before the app quits).
    func flush() {
        saver.sync {}
    }

    /// Queues a write of the current state; bursts of changes become one write of the newest.
    private func save() {
        guard pending.replace(with: config) else { return }
        let store = store
        saver.async { [pending] in
            guard let newest = pending.take() else { return }
            do {
                try store.save(newest)
            } catch {
                let message = "\(error)"
                MainLoopExecutor.main.runOnMainActor { [weak self] in self?.onSaveError(message) }
            }
        }
    }
}

/// The config waiting for the save queue: replaced by newer states until the queue takes it.
private final class PendingConfig: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: AppConfig?

    /// Stores `config`; true when a write must be queued (none was waiting).
    func replace(with config: AppConfig) -> Bool {
        lock.withLock {
            defer { waiting = config }
            return waiting == nil
        }
    }

    func take() -> AppConfig? {
        lock.withLock {
            defer { waiting = nil }
            return waiting
        }
    }
}
