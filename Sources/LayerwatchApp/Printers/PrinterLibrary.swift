import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// The app's saved state (printers in tab order, selection, closed tabs, window size, open mini
/// windows) and the
/// one place that writes it: every change is saved at once, atomically, through the ConfigStore —
/// off the main loop (the keyring and fsync can take a while), newest state first, one at a time.
/// The file is read at once; codes kept in the keyring arrive later, off the main loop too
/// (`whenSecretsLoaded`), so a keyring that stalls never freezes the window. The file is watched:
/// edited outside Layerwatch (by hand), it is read again, window or not, and its printers replace
/// those held (`onOutsideEdit`); a save that finds it changed first keeps it aside (`ConfigStore`).
/// Whoever follows the printers (status, notifications, timelapses) observes one stream
/// (`observePrinters`).
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
    /// The latest problem with the file (found reading it, or saving), for the window's banner.
    private(set) var fileProblem: String?
    /// Called with a sentence the user must read (logged already): a save failed (the file on disk
    /// is unchanged) or kept a file changed outside Layerwatch aside, or such a file cannot be read.
    var onProblem: @MainActor (String) -> Void = { _ in }
    /// Called with a sentence on where printers' secrets went, for a toast: kept in `printers.json`
    /// because the keyring did not take them (or none runs), or moved into the keyring.
    var onSecretsNews: @MainActor (String) -> Void = { _ in }
    /// Called, once, with the saved printers whose secrets `printers.json` holds while a keyring
    /// answers (learnt after the codes are in at start): the window offers to move them
    /// (`moveSecretsToKeyring`). Set late (a window opened later), it is called then.
    var onMoveOffer: (@MainActor ([Printer]) -> Void)? {
        didSet { offerMove() }
    }
    /// The printers `onMoveOffer` is to be told of.
    private var movable: [UUID] = []
    /// Called with the printers held before, once those of a file edited outside Layerwatch replace
    /// them (the observers have been told).
    var onOutsideEdit: @MainActor (_ before: [Printer]) -> Void = { _ in }
    /// Watches the file for edits made outside Layerwatch.
    private var watch: FileWatch?
    /// Whether the file is being read again on the save queue, and whether it changed meanwhile.
    private var checking = false, checkAgain = false
    /// Counts the saves asked for: a file read again is followed only if none was asked meanwhile
    /// (that save keeps it aside instead, and says so).
    private var revision = 0
    /// Set when the file changed on disk to something that cannot be read, until the next save.
    private var fileUnreadable = false
    /// True once the keyring's codes are in `config` (at once for a store without a keyring).
    private(set) var secretsLoaded = false
    private var waitingForSecrets: [@MainActor () -> Void] = []
    private var printersObservers: [Observer<[Printer]>] = []
    private var preferencesObservers: [Observer<Preferences>] = []

    init(store: ConfigStore) {
        self.store = store
        let file = store.loadFile()
        config = file.config
        fileProblem = file.problem
        do {
            watch = try FileWatch(path: store.fileURL.path) { [weak self] in self?.checkFile() }
        } catch {
            GLibLog.warning("edits of \(store.fileURL.path) made while Layerwatch runs are not followed: \(error)")
        }
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

    /// Asks, on the save queue (after the saves asked before), whether a keyring answers, and hands
    /// `answer` where `printer`'s secret is (or a new one would go) and whether a keyring could take
    /// it from `printers.json`, once known (never on the main loop: a keyring can stall).
    func askWhereSecretsGo(for printer: Printer?, _ answer: @escaping @MainActor (SecretsPlace, _ keyringCanTake: Bool) -> Void) {
        guard store.hasKeyring else { return }
        let store = store
        saver.async {
            _ = store.secretsLocation
            let place = store.secretsPlace(for: printer)
            let canTake = printer.map { !store.secretsToMove(among: [$0]).isEmpty } ?? false
            MainLoopExecutor.main.runOnMainActor { answer(place, canTake) }
        }
    }

    /// Moves the secrets of these printers from `printers.json` into the keyring, the user having
    /// asked (asking it again even after it declined one); `onSecretsNews` says how it went.
    func moveSecretsToKeyring(_ ids: [UUID]) {
        movable.removeAll { ids.contains($0) }
        store.requestMove(of: ids)
        save()
    }

    /// Learns, on the save queue, which saved printers' secrets `printers.json` holds while a
    /// keyring answers, for `onMoveOffer`.
    private func findMovableSecrets() {
        let store = store, printers = config.printers
        saver.async {
            let found = store.secretsToMove(among: printers)
            guard !found.isEmpty else { return }
            MainLoopExecutor.main.runOnMainActor { [weak self] in
                self?.movable = found
                self?.offerMove()
            }
        }
    }

    /// Hands the printers whose secrets could move to `onMoveOffer`, once.
    private func offerMove() {
        guard let onMoveOffer else { return }
        let printers = movable.compactMap(printer(id:))
        movable = []
        if !printers.isEmpty { onMoveOffer(printers) }
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

    /// Takes the keyring's codes for printers unchanged since the file was read, saves at once an
    /// older format, and learns which secrets the file holds that a keyring could take (the offer).
    private func secretsArrived(_ filled: ConfigStore.Loaded, fromFile: AppConfig) {
        for printer in filled.config.printers {
            guard let index = config.printers.firstIndex(where: { $0.id == printer.id }),
                  config.printers[index] == fromFile.printers.first(where: { $0.id == printer.id }) else { continue }
            config.printers[index] = printer
        }
        fileProblem = filled.problem
        secretsLoaded = true
        printersChanged()
        let waiting = waitingForSecrets
        waitingForSecrets = []
        waiting.forEach { $0() }
        if filled.needsSave { save() }
        findMovableSecrets()
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
        config.closedTabs.remove(id)
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

    /// Whether the saved printer's tab was closed (the printer stays saved and watched).
    func isTabClosed(_ id: UUID) -> Bool {
        config.closedTabs.contains(id)
    }

    /// Remembers that the saved printer's tab was closed, or opened again.
    func setTabClosed(_ closed: Bool, for id: UUID) {
        guard printer(id: id) != nil, closed != isTabClosed(id) else { return }
        if closed { config.closedTabs.insert(id) } else { config.closedTabs.remove(id) }
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
        preferencesChanged()
    }

    /// Tells the preferences' observers.
    private func preferencesChanged() {
        preferencesObservers.removeAll { $0.observation == nil }
        for observer in preferencesObservers { observer.handler(config.preferences) }
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
    /// gets another `limit`. A file that became unreadable meanwhile is written anew first (kept
    /// aside): the next start would set it aside and start without the printers held now.
    func flush(within limit: TimeInterval = 2) {
        if fileUnreadable { save() }
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
        revision += 1
        fileUnreadable = false
        guard pending.replace(with: config) else { return }
        let store = store
        saver.async { [pending] in
            guard let newest = pending.take() else { return }
            let problem: String?, news: [String]
            do {
                let saved = try store.save(newest)
                problem = saved.keptAside
                news = SecretsNews.after(saved, printers: newest.printers, path: store.fileURL.path)
            } catch {
                problem = "\(error)"
                news = []
            }
            guard problem != nil || !news.isEmpty else { return }
            MainLoopExecutor.main.runOnMainActor { [weak self] in
                if let problem { self?.tell(problem) }
                news.forEach { self?.onSecretsNews($0) }
            }
        }
    }

    /// Logs `problem`, keeps it for the window's banner and has the window show it.
    private func tell(_ problem: String) {
        GLibLog.warning(problem)
        fileProblem = problem
        onProblem(problem)
    }

    /// Reads the file again on the save queue (after the saves asked before), when the watch saw
    /// it change; one read at a time, another after it if it changed meanwhile.
    private func checkFile() {
        guard !checking else {
            checkAgain = true
            return
        }
        checking = true
        let store = store, asked = revision
        saver.async {
            var edit = store.outsideEdit()
            if case .edited(let loaded, let contents)? = edit { edit = .edited(store.fillSecrets(loaded), contents: contents) }
            MainLoopExecutor.main.runOnMainActor { [weak self, edit] in self?.fileChecked(edit, asked: asked) }
        }
    }

    /// Follows the file as `checkFile` found it: an edit replaces the config held, unless a save was
    /// asked since the read (then it is read again); a file that cannot be read changes nothing but
    /// is told once.
    private func fileChecked(_ edit: ConfigStore.OutsideEdit?, asked: Int) {
        checking = false
        defer {
            if checkAgain {
                checkAgain = false
                checkFile()
            }
        }
        switch edit {
        case nil:
            // Put back as it was read or written (or removed): nothing is wrong with it any more.
            if fileUnreadable {
                fileUnreadable = false
                fileProblem = nil
            }
        case .unreadable(let problem)?:
            fileUnreadable = true
            if problem != fileProblem { tell(problem) }
        case .edited(let loaded, let contents)? where asked == revision:
            GLibLog.debug("\(store.fileURL.path) was changed outside Layerwatch; following it")
            let before = config
            config = loaded.config
            fileProblem = loaded.problem
            fileUnreadable = false
            let store = store, printers = config.printers
            saver.async { store.adopt(contents, printers: printers) }  // before any later save
            if let problem = loaded.problem { tell(problem) }
            if config.printers != before.printers { printersChanged() }
            if config.preferences != before.preferences { preferencesChanged() }
            if secretsLoaded { onOutsideEdit(before.printers) }
            if loaded.needsSave { save() }
        case .edited?:
            // A save asked since: if it ran after the read, it kept the edit aside and the file is
            // its own now; if before, the edit is still to follow. Reading again tells which.
            checkAgain = true
        }
    }
}
