import CGtk
import CLayerwatch
import CameraKit
import Foundation
import GtkKit
import JournalKit
import PrinterKit
import StatusKit
import StreamKit

/// The GTK application: its lifecycle (start-up, the command line, the main window's opening and
/// closing, quitting) and the composition of the owners that do the rest — the library of saved
/// printers, the main window (its tabs, placement and fullscreen), the mini windows, the printer
/// editor, the recordings, the notifications, the timelapses and their pictures, the background
/// stay — and, as the features' context, which of them each feature reaches. Every view of a camera
/// gets its session from one registry, so a tab and its mini window share one connection; every
/// view of a printer's print status gets it from one hub, so they share one status client.
@MainActor
public final class LayerwatchApplication: FeatureContext {
    public nonisolated static let applicationID = "io.github.layerwatch.Layerwatch"
    public typealias LaunchFlag = LayerwatchApp.LaunchFlag

    let application: OpaquePointer
    /// Made on first use, before GTK starts (`connectEarly`) or in `startup`, so a launch that only
    /// hands URLs to the running instance never touches the config or the keyring.
    private(set) lazy var library = PrinterLibrary(store: makeStore())
    /// Hidden views that start the cameras' connections while GTK starts, until the tabs attach.
    private var earlyConsumers: [StreamConsumer] = []
    private let makeStore: () -> ConfigStore
    private var commandLineCameras: [Camera] = []
    /// The flags on the latest command line (this launch's, or one passed on by another launch).
    private var requested: Set<LaunchFlag> = []
    let sessions = SessionRegistry(terms: Printer.cameraTerms(of:))
    /// The recordings of those sessions, closed before the process ends.
    let recordings = Recordings()
    /// The saved printers' print status, one client each from start to Quit, window or not.
    let statusHub = PrinterStatusHub()
    /// Keeps the hub's status clients matching the saved printers.
    private var printersObservation: PrinterLibrary.Observation?
    /// Running with no window, while printers are watched (`closesToBackground`).
    private(set) lazy var background = BackgroundStay(application: application, library: library, hub: statusHub,
                                                      recordings: recordings, preferences: preferences)
    /// Where the print notifications remember what they saw (`NotificationLedger`).
    private let stateDirectory: URL
    /// Notifies finished, failed and paused prints and HMS alerts; made in `startup` (a launch that
    /// only hands URLs to the running instance makes none).
    private(set) var notifier: PrintNotifier?
    /// Takes the timelapses of prints; made in `startup`.
    private(set) var timelapses: TimelapseTaker?
    /// Records every print in the journal (`$XDG_DATA_HOME/layerwatch/journal.sqlite3`); made in `startup`.
    private(set) var journal: PrintJournal?
    private let journalFile: URL
    /// Tells in the window what ended while the user was away from it; made in `startup`.
    private(set) var away: AwayWatch?
    let preferences = AppPreferences()  // appearance, start at login, lost cameras, the Preferences window
    private(set) var window: MainWindow?
    /// Hands a web address to the desktop's handler, over the main window if it is open; tests
    /// put a recorder here.
    lazy var openURI: @MainActor (String) -> Void = { [unowned self] uri in
        gtk_show_uri(window.map { gcast($0.window) }, uri, guint32(GDK_CURRENT_TIME))
    }
    /// Opens a saved file in the desktop's application for it; tests put a recorder here.
    lazy var fileLauncher: @MainActor (URL) -> Void = { ShowInFiles.launchDefault(for: $0) }
    private(set) lazy var miniWindows = MiniWindows(application: application, sessions: sessions, hub: statusHub, commands: printCommands,
                                                    printFiles: printFiles, library: library, context: self, mainWindow: { [unowned self] in window })
    /// Sends the print controls' commands (a stop after asking).
    private(set) lazy var printCommands = PrintCommands(hub: statusHub)
    /// Print File: a file chosen or dropped on a printer, confirmed, sent.
    private(set) lazy var printFiles = PrintFiles(hub: statusHub)
    private(set) lazy var editor = PrinterEditor(library: library, sessions: sessions, miniWindows: miniWindows,
                                                 discovery: discoveryConfiguration, mainWindow: { [unowned self] in window })
    /// The pictures of the notifications and the timelapses.
    private(set) lazy var pictures = PrinterPictures(sessions: sessions, library: library, miniWindows: miniWindows,
                                                mainWindow: { [weak self] in self?.window })
    private let discoveryConfiguration: PrinterDiscovery.Configuration
    /// Whether a process closed to the background replaces itself with a lean one (`LeanRestart`):
    /// the `layerwatch` executable's choice; tests that run the app inside their own process leave
    /// it off.
    public var restartsLean: Bool {
        get { background.restartsLean }
        set { background.restartsLean = newValue }
    }

    /// - Parameters:
    ///   - store: where printers are saved (`ConfigStore.standard()` in the app, a temp one in tests);
    ///     called once, in the instance that opens the window.
    ///   - id: the GApplication id (tests running several apps in one process pass their own).
    ///   - discovery: where the Add Printer dialog listens for printers (tests listen on loopback).
    ///   - stateDirectory: where the print notifications remember what they notified (the XDG
    ///     state directory in the app, a temporary one in tests).
    ///   - journal: the print journal's file (`JournalStore.defaultURL()` in the app); nil puts it
    ///     in `stateDirectory`, so tests never write the user's.
    public init(store: @escaping () -> ConfigStore, id: String = LayerwatchApplication.applicationID,
                discovery: PrinterDiscovery.Configuration = PrinterDiscovery.Configuration(),
                stateDirectory: URL = NotificationLedger.defaultDirectory(), journal: URL? = nil) {
        makeStore = store
        self.stateDirectory = stateDirectory
        journalFile = journal ?? stateDirectory.appendingPathComponent("journal.sqlite3")
        discoveryConfiguration = discovery
        application = OpaquePointer(adw_application_new(id, G_APPLICATION_HANDLES_COMMAND_LINE))
        connectSignal(application, "startup") { [self] in startup() }
        connectSignal(application, "activate") { [self] in activate() }
        // GApplication parses the flags in the launching process and hands them, with the URLs, to
        // the instance that shows the window as its options dictionary.
        for flag in LaunchFlag.allCases {
            g_application_add_main_option(gcast(application), flag.rawValue, 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, flag.help, nil)
        }
        connectIntSignal(application, "command-line") { [self] commandLine in
            guard let commandLine else { return 0 }
            let options = g_application_command_line_get_options_dict(gcast(commandLine))
            requested = Set(LaunchFlag.allCases.filter { g_variant_dict_contains(options, $0.rawValue) != 0 })
            // What GOption left after the program's name and the options, without the `--` that `run` puts before them.
            let arguments = commandLineArguments(gcast(commandLine))
            open(urls: arguments.first == "--" ? Array(arguments.dropFirst()) : arguments)
            return 0
        }
    }

    /// Runs the app with camera `urls` (already validated) to open as tabs that are not saved, and
    /// the `flags`' requests. Launched while Layerwatch already runs, it hands them to the running
    /// instance (which opens them and comes to the front, unless only `--background` was asked) and
    /// returns at once. Returns the exit status.
    public func run(urls: [String], flags: Set<LaunchFlag> = []) -> Int32 {
        if restartsLean { LeanRestart.noteInheritedDescriptors() }
        SoftwareGL.chooseRenderer()
        if !DBusNames.hasOwner(String(cString: g_application_get_application_id(gcast(application)))), !flags.contains(.background) {
            connectEarly(cameras: Self.cameras(from: urls))
        }
        // SIGTERM (a logout, systemd, `kill`) and SIGINT (Ctrl+C in a terminal) end Layerwatch as
        // Quit does; a second signal finds the default action again and ends the process at once.
        for number in [SIGTERM, SIGINT] { onUnixSignal(number) { [weak self] in self?.quit() } }
        // After `--`, GOption leaves a URL that starts with `-` (a file `-1.mp4`, `--farm`) a URL.
        let arguments = ["layerwatch"] + flags.map(\.argument).sorted() + (urls.isEmpty ? [] : ["--"] + urls)
        let status = withCStringArray(arguments) { argv in
            argv.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self, capacity: arguments.count + 1) {
                g_application_run(gcast(application), Int32(arguments.count), $0)
            }
        }
        recordings.finishAll()
        timelapses?.flush()
        return status
    }

    /// Reads the config and starts the connection of every camera the window will show, before GTK
    /// starts: opening the stream and the camera's wait for a keyframe then overlap GTK's start-up
    /// and the window's construction instead of following them. Not when another instance runs: that
    /// one shows the cameras, and a printer takes one camera client.
    func connectEarly(cameras commandLine: [Camera]) {
        GLibLog.install() // before the config is read (`library`), so what reading it logs reaches the journal
        func connect(_ cameras: [Camera]) {
            earlyConsumers += cameras.map { sessions.session(for: $0.source).keepConnected() }
        }
        connect(commandLine)  // needs no code from the keyring
        library.whenSecretsLoaded { [self] in
            guard window?.tabs.all.isEmpty ?? true else { return }  // the tabs are up already
            let tabs = PrinterCameras.tabs(of: library.config.printers, commandLine: commandLine).tabs
            connect(tabs.flatMap(\.cameras).filter { camera in !commandLine.contains { $0.id == camera.id } })
        }
    }

    private static func cameras(from urls: [String]) -> [Camera] {
        urls.compactMap { try? StreamSource.parse($0) }.map { Camera(name: Camera.defaultName(for: $0), source: $0) }
    }

    /// Opens `urls` as extra tabs: at start, or when another launch passed them on. A launch asking
    /// only for the background opens no window.
    func open(urls: [String]) {
        let cameras = Self.cameras(from: urls)
        if requested == [.background], cameras.isEmpty {
            if window == nil { background.startInBackground() }
            return
        }
        guard let window else {
            commandLineCameras = cameras
            activate()
            return
        }
        for camera in cameras {
            GLibLog.debug("opening \(camera.source) passed on by another launch")
            window.open(PrinterCameras(camera: camera), select: true)
        }
        if requested.contains(.demo) { window.showDemo() }
        if requested.contains(.farm) { window.showFarm(true) }
        window.present()
    }

    /// Registers the application (which runs `startup`) without running its loop, for tests that
    /// drive the main context themselves and then call `activate`.
    func registerWithoutRunning() {
        g_application_register(gcast(application), nil, nil)
    }

    /// Waits until every saved change is on disk.
    func flushSaves() {
        library.flush()
        notifier?.flush()
    }

    private func startup() {
        GLibLog.install()
        AppStyle.install()
        // Another program destroying a window (`xdotool windowclose`) closes it instead of aborting in GDK.
        if let display = gdk_display_get_default() { lw_x11_survive_foreign_destroy(display) }
        notifier = PrintNotifier(application: application, hub: statusHub, ledger: NotificationLedger(directory: stateDirectory),
                                 library: library, picture: pictures.freshPicture)
        timelapses = makeTimelapses(in: stateDirectory.appendingPathComponent("timelapse", isDirectory: true))
        journal = PrintJournal(store: JournalStore(url: journalFile), hub: statusHub, library: library, pictures: pictures)
        journal?.onProblem = { [weak self] problem in self?.window?.showBanner(problem) }
        away = journal.map { AwayWatch(store: $0.store) }
        (background.notifier, background.timelapses, background.journal, background.away) = (notifier, timelapses, journal, away)
        notifier?.onIdle = { [weak background] in background?.holdEnded() }
        timelapses?.onIdle = { [weak background] in background?.holdEnded() }
        recordings.onIdle = { [weak background] in background?.holdEnded() }
        journal?.onIdle = { [weak background] in background?.holdEnded() }
        journal?.follow(recordings, printFiles)
        journal?.onChange = { [weak self] in self?.window?.history?.journalChanged() }
        printersObservation = library.observePrinters { [statusHub] printers in statusHub.sync(printers) }
        library.onOutsideEdit = { [weak self] before in self?.editor.followOutsideEdit(before: before) }
        preferences.follow(self)
        miniWindows.onReturnToTab = { [weak self] id, camera in self?.showPrinter(id, camera: camera) }
        miniWindows.onLastClosed = { [weak self] in self?.lastWindowCloses() }
        for feature in Feature.all {
            if !feature.accelerators.isEmpty { setAccelerators(application, feature.actionName, feature.accelerators) }
            if feature.scope == .application { _ = feature.install(on: application, for: self) }
        }
    }

    /// Opens the main window, restoring saved tabs, selection, size and mini windows.
    func activate() {
        if let window {
            window.present()
            return
        }
        let window = MainWindow(application: application, context: self, library: library, sessions: sessions, hub: statusHub,
                                recordings: recordings, commands: printCommands, printFiles: printFiles, journal: journal)
        self.window = window
        away?.watch(window)
        background.release()  // the window holds the application now
        library.whenSecretsLoaded { [weak self] in
            guard let self else { return }
            statusHub.sync(library.config.printers)  // watching again if a window before this one ended it
        }
        window.tabs.onCloseRequest = { [weak self] page in self?.editor.closeTab(page) }
        window.onCameraChange = { [weak self] page in self?.miniWindows.follow(page) }
        // The welcome page lists the printers on the network while it shows.
        window.onWelcomeChange = { [weak self, weak window] shown in self?.editor.listDiscovered(in: shown ? window?.welcome.discovered : nil) }
        window.welcome.discovered.onPick = { [weak self] found in self?.editor.add(found) }
        connectBoolSignal(window.window, "close-request") { [weak self] in
            self?.windowCloses()
            return false
        }
        connectSignal(window.window, "destroy") { [weak self] in
            guard let self else { return }
            self.window = nil
            editor.listDiscovered(in: nil)
            // Not held in the background, the process ends with its last window: nothing is watched any more.
            if !background.isHeld, miniWindows.all.isEmpty { statusHub.stopAll() }
        }
        connectSignal(window.window, "map") { LaunchClock.reached("window mapped") }
        // A keyring still looking up codes shows the window at once; the tabs follow its answer.
        if !library.secretsLoaded { window.present() }
        // A tab per saved printer (plus the command line's cameras and the demo if asked), the
        // selection, the banner and the mini windows, from the config with its codes.
        library.whenSecretsLoaded { [weak self, weak window] in
            guard let self, let window, self.window === window else { return }
            let (tabs, unopenable) = PrinterCameras.tabs(of: library.config.printers, commandLine: commandLineCameras)
            // A printer added while the keyring was still answering has its tab already.
            window.restore(tabs, selecting: commandLineCameras.isEmpty ? library.config.selectedPrinterID : nil,
                           problems: ([library.fileProblem, journal?.takeProblem()] + unopenable.map { String(format: tr("Can't open %@"), $0) }).compactMap { $0 },
                           demo: requested.contains(.demo), farm: library.config.farm.shown || requested.contains(.farm))
            earlyConsumers.forEach { $0.detach() }  // the tabs hold the connections now
            earlyConsumers = []
            recordings.releaseSessions()
            // Once the window is up, so they open over it where nothing keeps them above (Wayland).
            whenMapped(window.window) { [weak self, weak window] in
                guard let self, let window else { return }
                miniWindows.restore(library.config.miniWindows, over: window)
            }
        }
    }

    /// The main window is closing (its close button, the desktop's close): it is remembered. The
    /// mini windows stay open (a picture-in-picture is for watching while working), the recordings'
    /// cameras held, and Layerwatch runs on with them; with none open, the last window is closing
    /// (`lastWindowCloses`).
    private func windowCloses() {
        if miniWindows.all.isEmpty { lastWindowCloses() } else { recordings.holdSessions() }
        rememberWindow()
    }

    /// The last window (the main window, or the last mini window with the main window closed) is
    /// closing: Layerwatch goes on in the background when it watches something and the preference
    /// says so; else the process ends with the window, and nothing is watched any more.
    private func lastWindowCloses() {
        if background.closesToBackground { background.goToBackground() } else if window == nil { statusHub.stopAll() }
    }

    /// Remembers the main window's size (if it is open), and puts what is saved on disk.
    private func rememberWindow() {
        window?.rememberPlacement()
        window = nil
        flushSaves()
    }

    /// Ends everything (Ctrl+Q, the menu's Quit, the background notice's Quit): the recordings are
    /// closed whole first, while their sessions still run, then the main window goes as closing it
    /// does (its size remembered), the mini windows (remembered for next time), every other window,
    /// the status connections stop, what is saved reaches the disk, and the application's loop ends.
    func quit() {
        recordings.finishAll()
        recordings.releaseSessions()
        let main = window
        miniWindows.closeRemembering()
        rememberWindow()
        // The other windows (dialogs, About…) let go of their parent first: one still handling the
        // key that quit is freed after the event, when its parent may be gone.
        for other in applicationWindows(of: application) where other != main.map({ gcast($0.window) }) {
            gtk_window_set_transient_for(other, nil)
            gtk_window_destroy(other)
        }
        main?.close()
        statusHub.stopAll()
        timelapses?.flush()
        journal?.close()
        background.release()
        g_application_quit(gcast(application))
    }

    /// The taker, its pictures waiting in `folder`; it says in the window what became of a video.
    private func makeTimelapses(in folder: URL) -> TimelapseTaker {
        let taker = TimelapseTaker(folder: folder, hub: statusHub, library: library,
                                   camera: pictures.pictureCamera)
        taker.onVideo = { [weak self] id, video, job, failed in
            guard let self else { return }
            journal?.add(JournalVideo(kind: .timelapse, file: video), printer: id, job: job)
            notifier?.offerTimelapse(video, job: job, failed: failed, of: id)
            window?.toast(String(format: tr("Saved the timelapse “%@” in %@"), video.lastPathComponent, SavedFiles.shownName(of: video.deletingLastPathComponent())), file: video)
        }
        taker.onFailure = { [weak self] printer, reason in
            self?.window?.toast(String(format: tr("The timelapse of “%@” could not be saved: %@. Its pictures are kept and it is made when the printer's next print ends or Layerwatch starts again."), printer, reason))
        }
        return taker
    }

    // MARK: The features' context: each feature reaches the owner of what it acts on

    var selectedCamera: Camera? { window?.tabs.selected?.camera }
    var selectedPrinterID: UUID? { window?.tabs.selected?.printerID }
    var hasSavedPrinters: Bool { !library.config.printers.isEmpty }
    var isFullscreen: Bool { window?.isFullscreen ?? false }
    var isFarmShown: Bool { window?.isFarmShown ?? false }
    var attentionFirst: Bool { library.config.farm.attentionFirst }
    var isHistoryShown: Bool { window?.isHistoryShown ?? false }
    var isFarmSelecting: Bool { window?.farm.isSelecting ?? false }
    var farmChoice: [UUID] { window?.farm.chosen ?? [] }

    func showTab(_ id: UUID) { window?.reveal(printer: id) }
    func toggleFullscreen() { window?.toggleFullscreen() }
    func setFullscreen(_ fullscreen: Bool) { window?.setFullscreen(fullscreen) }
    func togglePopOut(_ camera: Camera) { miniWindows.toggle(camera) }
    func showDialog(editing printer: Printer?) { editor.showDialog(editing: printer) }
    func showDemo() { window?.showDemo() }
    func editAccessCode(of printer: Printer) { editor.showDialog(editing: printer, focusing: .accessCode) }
    func chooseGo2RTCExport() { window.map { Go2RTCExportDialog.present(over: $0, library: library) } }
    func closeSelectedTab() { window?.tabs.requestCloseSelected() }
    func showAbout() { AppMenu.showAbout(parent: window?.window, version: Installation.version) }
    func showPreferences() { preferences.show(over: window?.window, library: library, actions: editor.preferencesActions,
                                                         journal: journal?.store) }
    func showFarm(_ shown: Bool) { window?.showFarm(shown) }
    func setAttentionFirst(_ on: Bool) { window?.setAttentionFirst(on) }
    func showHistory(_ shown: Bool) { window?.showHistory(shown) }
    /// Presents the main window (opening it if need be) with the History page of the prints ended since `since`.
    func showHistory(since: Date) { activate(); window?.showHistory(since: since) }
    func searchHistory() { window?.history?.focusSearch() }
    func setFarmSelecting(_ on: Bool) { window?.farm.isSelecting = on }
    func printTarget(of id: UUID) -> PrintTarget? { window?.printTarget(of: id) }
    /// Presents the main window (opening it if need be) with the printer's tab selected.
    func showPrinter(_ id: UUID) { showPrinter(id, camera: nil) }
    /// Presents the main window (opening it if need be) with the printer's tab (opened again if it
    /// was closed) selected, showing `camera` when given.
    func showPrinter(_ id: UUID, camera: UUID?) {
        activate()
        library.whenSecretsLoaded { [weak self] in self?.window?.reveal(printer: id, camera: camera) }
    }
    /// Opens `file` in the desktop's application for it (a picture viewer, a video player): a saved
    /// file's toast, and the finish notification's Open Timelapse.
    func openFile(_ file: URL) { fileLauncher(file) }
    /// Shows `file` selected in its folder: a saved file's toast's Show in Files.
    func showInFiles(_ file: URL) { ShowInFiles.show(file) }
    /// Opens `url` with the desktop's handler (a web browser) if it is one of Bambu's help pages
    /// (`BambuAlert.isHelpPage`): a notification's Learn More. Any other address, which only
    /// another program on the session bus could ask for, is refused.
    func openLink(_ url: String) {
        guard BambuAlert.isHelpPage(url) else {
            GLibLog.warning("refused to open a link that is not one of Bambu's help pages")
            return
        }
        openURI(url)
    }
}
