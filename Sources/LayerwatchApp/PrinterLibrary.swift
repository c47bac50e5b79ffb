import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// The app's saved state (printers in tab order, selection, window size, open mini windows) and the
/// one place that writes it: every change is saved at once, atomically, through the ConfigStore —
/// off the main loop (the keyring and fsync can take a while), newest state first, one at a time.
/// The file is read at once; codes kept in the keyring arrive later, off the main loop too
/// (`whenSecretsLoaded`), so a keyring that stalls never freezes the window. Whoever follows the
/// printers (status, notifications, timelapses) observes one stream (`observePrinters`).
@MainActor
final class PrinterLibrary {
    /// Keeps one `observePrinters` call's handler alive: the handler is dropped with its observation.
    final class Observation {
        fileprivate init() {}
    }

    private struct Observer<Value> {
        weak var observation: Observation?
        let handler: @MainActor (Value) -> Void
    }

    let store: ConfigStore
    private(set) var config: AppConfig
    private let saver = DispatchQueue(label: "layerwatch.config-save")
    /// The newest state waiting to be written; nil while nothing is waiting.
    private let pending = NewestPending<AppConfig>()
    /// A problem found while loading, for the window's banner.
    private(set) var loadProblem: String?
    /// Called with a sentence when a save failed (the file on disk is unchanged).
    var onSaveError: @MainActor (String) -> Void = { _ in }
    /// True once the keyring's codes are in `config` (at once for a store without a keyring).
    private(set) var secretsLoaded = false
    private var waitingForSecrets: [@MainActor () -> Void] = []
    private var printersObservers: [Observer<[Printer]>] = []
    private var preferencesObservers: [Observer<Preferences>] = []

    init(store: ConfigStore) {
        self.store = store
        let file = store.loadFile()
        config = file.config
        loadProblem = file.problem
        guard store.hasKeyring, !file.config.printers.isEmpty else {
            secretsLoaded = true
            if file.needsSave { save() }  // an older format, written in this one
            return
        }
        saver.async {
            let filled = store.fillSecrets(file)
            MainLoopExecutor.main.runOnMainActor { [weak self] in self?.secretsArrived(filled, fromFile: file.config) }
        }
    }

    /// Asks, on the save queue, whether a keyring answers, and hands `answer` the dialog's sentence
    /// on where access codes go once it is known (never on the main loop: a keyring can stall).
    func askWhereSecretsGo(_ answer: @escaping @MainActor (String) -> Void) {
        guard store.hasKeyring else { return }
        let store = store
        saver.async {
            _ = store.secretsLocation
            let notice = store.secretsNotice
            MainLoopExecutor.main.runOnMainActor { answer(notice) }
        }
    }

    /// Calls `handler` with the saved printers once their codes are in (now, if they are) and again
    /// after every change to them (added, edited, removed, reordered), for as long as the returned
    /// observation is kept.
    func observePrinters(_ handler: @escaping @MainActor ([Printer]) -> Void) -> Observation {
        let observation = Observation()
        printersObservers.removeAll { $0.observation == nil }
        printersObservers.append(Observer(observation: observation, handler: handler))
        if secretsLoaded { handler(config.printers) }
        return observation
    }

    /// Calls `handler` with the preferences now and again after every change to them, for as long
    /// as the returned observation is kept: whatever obeys a preference follows it here.
    func observePreferences(_ handler: @escaping @MainActor (Preferences) -> Void) -> Observation {
        let observation = Observation()
        preferencesObservers.removeAll { $0.observation == nil }
        preferencesObservers.append(Observer(observation: observation, handler: handler))
        handler(config.preferences)
        return observation
    }

    /// Tells the printers' observers, once the codes are in.
    private func printersChanged() {
        guard secretsLoaded else { return }
        printersObservers.removeAll { $0.observation == nil }
        for observer in printersObservers { observer.handler(config.printers) }
    }

    /// Runs `body` once the keyring's codes are in `config`: now, or when they arrive.
    func whenSecretsLoaded(_ body: @escaping @MainActor () -> Void) {
        if secretsLoaded { body() } else { waitingForSecrets.append(body) }
    }

    /// Takes the keyring's codes for printers unchanged since the file was read, and moves secrets
    /// the file still holds into the keyring.
    private func secretsArrived(_ filled: ConfigStore.Loaded, fromFile: AppConfig) {
        for printer in filled.config.printers {
            guard let index = config.printers.firstIndex(where: { $0.id == printer.id }),
                  config.printers[index] == fromFile.printers.first(where: { $0.id == printer.id }) else { continue }
            config.printers[index] = printer
        }
        loadProblem = filled.problem
        secretsLoaded = true
        printersChanged()
        let waiting = waitingForSecrets
        waitingForSecrets = []
        waiting.forEach { $0() }
        if filled.needsSave { save() }
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
        printersChanged()
    }

    func remove(id: UUID) {
        config.printers.removeAll { $0.id == id }
        config.miniWindows.removeAll { $0.printerID == id }
        if config.selectedPrinterID == id { config.selectedPrinterID = nil }
        save()
        printersChanged()
    }

    /// Puts saved printers in the order their tabs now have (other tabs are ignored).
    func reorder(_ ids: [UUID]) {
        let ranks = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        let sorted = config.printers.sorted { (ranks[$0.id] ?? Int.max) < (ranks[$1.id] ?? Int.max) }
        guard sorted.map(\.id) != config.printers.map(\.id) else { return }
        config.printers = sorted
        save()
        printersChanged()
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

    func setFarm(_ farm: AppConfig.Farm) {
        guard config.farm != farm else { return }
        config.farm = farm
        save()
    }

    func setPreferences(_ preferences: Preferences) {
        guard config.preferences != preferences else { return }
        config.preferences = preferences
        save()
        preferencesObservers.removeAll { $0.observation == nil }
        for observer in preferencesObservers { observer.handler(preferences) }
    }

    /// Remembers that the background notice was shown, so it is shown once.
    func markBackgroundNoticeShown() {
        guard !config.backgroundNoticeShown else { return }
        config.backgroundNoticeShown = true
        save()
    }

    /// Remembers that the Wayland keep-above hint was shown, so it is shown once.
    func markKeepAboveHintShown() {
        guard !config.keepAboveHintShown else { return }
        config.keepAboveHintShown = true
        save()
    }

    /// Waits until every change so far is on disk (before the app quits), at most `limit` seconds
    /// for the keyring: then its calls are cancelled and the codes go to the owner-only file, which
    /// gets another `limit`.
    func flush(within limit: TimeInterval = 2) {
        let done = DispatchSemaphore(value: 0)
        saver.async { done.signal() }
        guard done.wait(timeout: .now() + limit) == .timedOut else { return }
        GLibLog.warning(String(format: tr("The keyring did not answer within %ld s; access codes are kept in %@ for now."),
                               Int(limit), store.fileURL.path))
        store.abandonKeyring()
        _ = done.wait(timeout: .now() + limit)
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
