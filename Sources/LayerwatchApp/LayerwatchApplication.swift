import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// The GTK application: starts libadwaita, the style and the main-loop bridge; opens the main window
/// with a tab per saved printer (or the demo camera when there is none) plus any camera given on the
/// command line; adds, edits and removes printers; pops printers out into mini windows; and keeps
/// all of it saved. Every view of a camera gets its session from one registry, so a tab and its mini
/// window share one connection; every view of a printer's print status gets it from one hub, so
/// they share one status client.
@MainActor
public final class LayerwatchApplication {
    public nonisolated static let applicationID = "io.github.layerwatch.Layerwatch"

    let application: OpaquePointer
    /// The screensaver inhibition held while a camera is fullscreen.
    private var inhibitCookie: guint = 0
    /// Made before GTK starts (`connectEarly`) or in `startup`, so a launch that only hands URLs to
    /// the running instance never touches the config or the keyring.
    private(set) var library: PrinterLibrary!
    /// Hidden views that start the cameras' connections while GTK starts, until the tabs attach.
    private var earlyConsumers: [StreamConsumer] = []
    private let makeStore: () -> ConfigStore
    private var commandLineCameras: [Camera] = []
    /// `--farm` was on the latest command line (this launch's, or one passed on by another launch):
    /// the window opens in, or switches to, the farm view.
    private var farmRequested = false
    let sessions = SessionRegistry()
    /// The saved printers' print status, one client each while the window is open.
    let statusHub = PrinterStatusHub()
    /// Where the print notifications remember what they saw (`NotificationLedger`).
    private let stateDirectory: URL
    /// Notifies finished, failed and paused prints and HMS alerts; made in `startup`.
    var notifier: PrintNotifier!
    var timelapses: TimelapseTaker!
    var window: MainWindow?
    var miniWindows: [UUID: MiniWindow] = [:] {
        didSet {
            // Every mini window shows its printer's status from the moment it is listed.
            for (id, mini) in miniWindows where oldValue[id] !== mini { mini.followStatus(in: statusHub) }
        }
    }
    let discoveryConfiguration: PrinterDiscovery.Configuration
    /// The listener that runs while the Add Printer dialog is open.
    var discovery: PrinterDiscovery?

    /// - Parameters:
    ///   - store: where printers are saved (`ConfigStore.standard()` in the app, a temp one in tests);
    ///     called once, in the instance that opens the window.
    ///   - id: the GApplication id (tests running several apps in one process pass their own).
    ///   - discovery: where the Add Printer dialog listens for printers (tests listen on loopback).
    ///   - stateDirectory: where the print notifications remember what they notified (the XDG
    ///     state directory in the app, a temporary one in tests).
    public init(store: @escaping () -> ConfigStore, id: String = LayerwatchApplication.applicationID,
                discovery: PrinterDiscovery.Configuration = PrinterDiscovery.Configuration(),
                stateDirectory: URL = NotificationLedger.defaultDirectory()) {
        makeStore = store
        self.stateDirectory = stateDirectory
        discoveryConfiguration = discovery
        application = OpaquePointer(adw_application_new(id, G_APPLICATION_HANDLES_COMMAND_LINE))
        connectSignal(application, "startup") { [self] in startup() }
        connectSignal(application, "activate") { [self] in activate() }
        connectIntSignal(application, "command-line") { [self] commandLine in
            let arguments = commandLine.map { Self.arguments(of: gcast($0)) } ?? []
            farmRequested = arguments.contains(Self.farmArgument)
            open(urls: arguments.filter { $0 != Self.farmArgument })
            return 0
        }
    }

    /// How `run(urls:farm:)` passes the farm request to the instance that shows the window (a camera
    /// URL never looks like it: URLs are validated before).
    private nonisolated static let farmArgument = "--farm"

    /// Runs the app with camera `urls` (already validated) to open as tabs that are not saved, in
    /// the farm view when `farm` is set. Launched while Layerwatch already runs, it hands them to
    /// the running instance (which opens them and comes to the front) and returns at once. Returns
    /// the exit status.
    public func run(urls: [String], farm: Bool = false) -> Int32 {
        SoftwareGL.chooseRenderer()
        if !DBusNames.hasOwner(String(cString: g_application_get_application_id(gcast(application)))) {
            connectEarly(cameras: Self.cameras(from: urls))
        }
        let arguments = ["layerwatch"] + (farm ? [Self.farmArgument] : []) + urls
        let status = withCStringArray(arguments) { argv in
            argv.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self, capacity: arguments.count + 1) {
                g_application_run(gcast(application), Int32(arguments.count), $0)
            }
        }
        finishRecordings()
        timelapses?.flush()
        return status
    }

    /// Reads the config and starts the connection of every camera the window will show, before GTK
    /// starts: opening the stream and the camera's wait for a keyframe then overlap GTK's start-up
    /// and the window's construction instead of following them. Not when another instance runs: that
    /// one shows the cameras, and a printer takes one camera client.
    func connectEarly(cameras commandLine: [Camera]) {
        GLibLog.install() // before the config is read, so what reading it logs reaches the journal
        library = PrinterLibrary(store: makeStore())
        func connect(_ cameras: [Camera]) {
            earlyConsumers += cameras.map {
                sessions.session(for: $0.source).attach(executor: MainLoopExecutor.main, visible: false,
                                                        onState: { _ in }, onFrame: { _ in })
            }
        }
        connect(commandLine)  // needs no code from the keyring
        library.whenSecretsLoaded { [self] in
            guard window?.tabs.all.isEmpty ?? true else { return }  // the tabs are up already
            connect(tabsToOpen(commandLine: commandLine).tabs.flatMap { $0 }.filter { camera in !commandLine.contains { $0.id == camera.id } })
        }
    }

    private static func cameras(from urls: [String]) -> [Camera] {
        urls.compactMap { try? StreamSource.parse($0) }.map { Camera(name: Camera.defaultName(for: $0), source: $0) }
    }

    /// The tabs a new window opens, each with its cameras: the saved printers (and those that can't
    /// be opened, with why), the command line's cameras, or the demo when there are neither.
    private func tabsToOpen(commandLine: [Camera]) -> (tabs: [[Camera]], unopenable: [String]) {
        var tabs: [[Camera]] = [], unopenable: [String] = []
        for printer in library.config.printers {
            do { tabs.append(try Camera.all(of: printer)) } catch { unopenable.append("“\(printer.name)”: \(error)") }
        }
        tabs += commandLine.map { [$0] }
        if tabs.isEmpty && unopenable.isEmpty, let demo = Camera.demo() { tabs.append([demo]) }
        return (tabs, unopenable)
    }

    /// Opens `urls` as extra tabs: at start, or when another launch passed them on.
    func open(urls: [String]) {
        let cameras = Self.cameras(from: urls)
        guard let window else {
            commandLineCameras = cameras
            activate()
            return
        }
        for camera in cameras {
            GLibLog.debug("opening \(camera.source) passed on by another launch")
            addTab([camera], select: true)
        }
        if farmRequested { showFarm(true) }
        window.present()
    }

    private static func arguments(of commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> [String] {
        var count: Int32 = 0
        guard let argv = g_application_command_line_get_arguments(commandLine, &count) else { return [] }
        defer { g_strfreev(argv) }
        return (1..<max(1, Int(count))).compactMap { argv[$0].map { String(cString: $0) } }
    }

    /// Registers the application (which runs `startup`) without running its loop, for tests that
    /// drive the main context themselves and then call `activate`.
    func registerWithoutRunning() {
        g_application_register(gcast(application), nil, nil)
    }

    /// Waits until every saved change is on disk.
    func flushSaves() {
        library.flush()
        notifier.flush()
    }

    /// The confirmation shown by the last close request of a saved printer, while it is open.
    var pendingRemoval: OpaquePointer?
    /// The Add/Edit Printer dialog while it is open.
    weak var openDialog: PrinterDialog?
    /// The recordings running (`setRecording`), so each file is closed before the process ends.
    var recordings: [StreamRecording] = []

    private func startup() {
        GLibLog.install()
        if library == nil { library = PrinterLibrary(store: makeStore()) }
        AppStyle.install()
        startNotifications(ledger: NotificationLedger(directory: stateDirectory))
        startTimelapses(in: stateDirectory.appendingPathComponent("timelapse", isDirectory: true))
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
        let tabs = PrinterTabs()
        let window = MainWindow(app: self, tabs: tabs)
        self.window = window
        library.onSaveError = { [weak window] message in
            GLibLog.warning(message)
            window?.showBanner(message)
        }
        tabs.onCloseRequest = { [weak self] page in self?.confirmClose(page) }
        tabs.onOrderChange = { [weak self, unowned tabs, unowned window] in
            self?.library.reorder(tabs.all.map(\.camera.printerID))
            // Tabs come and go as printers are added, edited and removed.
            self?.syncPrinterStatus()
            window.farm.sync(tabs.all)
            window.selectionChanged(tabs.selected)
        }
        window.farm.attentionFirst = library.config.farm.attentionFirst
        window.farm.onActivate = { [weak self] id in self?.showTab(id) }
        window.onFullscreenChange = { [weak self] fullscreen in self?.inhibitScreensaver(fullscreen) }
        connectBoolSignal(window.window, "close-request") { [weak self] in
            self?.rememberWindow()
            return false
        }
        connectSignal(window.window, "destroy") { [weak self] in
            self?.window = nil
            self?.statusHub.stopAll()
        }
        connectSignal(window.window, "map") { LaunchClock.reached("window mapped") }

        let saved = library.config
        gtk_window_set_default_size(gcast(window.window), Int32(saved.window.width), Int32(saved.window.height))
        if saved.window.maximized { gtk_window_maximize(gcast(window.window)) }
        // A keyring still looking up codes shows the window at once; the tabs follow its answer.
        if !library.secretsLoaded { window.present() }
        library.whenSecretsLoaded { [weak self, weak window] in
            guard let self, let window, self.window === window else { return }
            restoreTabs(in: window)
        }
    }

    /// Opens a tab per saved printer (plus the command line's cameras, or the demo), the selection,
    /// the banner and the mini windows, from the config with its codes.
    private func restoreTabs(in window: MainWindow) {
        let saved = library.config
        let tabs = window.tabs
        let (toOpen, unopenable) = tabsToOpen(commandLine: commandLineCameras)
        // A printer added while the keyring was still answering has its tab already.
        for cameras in toOpen where tabs.page(id: cameras[0].printerID) == nil {
            addTab(cameras, select: library.printer(id: cameras[0].printerID) == nil)
        }
        earlyConsumers.forEach { $0.detach() }  // the tabs hold the connections now
        earlyConsumers = []
        if commandLineCameras.isEmpty, let id = saved.selectedPrinterID, let page = tabs.page(id: id) { tabs.select(page) }
        tabs.onSelectionChange = { [weak self, weak window] page in
            window?.selectionChanged(page)
            self?.library.select(page?.camera.printerID)
        }
        let problems = [library.loadProblem] + unopenable.map { Optional(String(format: tr("Can't open %@"), $0)) }
        problems.compactMap { $0 }.forEach(GLibLog.warning)
        if let banner = problems.compactMap({ $0 }).first { window.showBanner(banner) }
        if saved.farm.shown || farmRequested { showFarm(true) }
        window.present()
        for mini in saved.miniWindows {
            guard let page = tabs.page(id: mini.printerID) else { continue }
            // The tab shows the camera its mini window showed.
            page.showCamera(at: page.cameras.firstIndex { $0.id == mini.cameraID } ?? 0)
            togglePopOut(page.camera, size: (Int32(mini.width), Int32(mini.height)))
        }
    }

    /// Adds a tab showing `cameras` (one printer's).
    func addTab(_ cameras: [Camera], select: Bool, at position: Int? = nil) {
        guard let window else { return }
        let page = PrinterPage(cameras: cameras) { [sessions] in sessions.session(for: $0.source) }
        syncPrinterStatus()
        page.followStatus(in: statusHub)
        let printerID = page.printerID
        if library.printer(id: printerID) != nil {
            page.surface.onEditAccessCode = { [weak self] in
                guard let self, let printer = library.printer(id: printerID) else { return }
                showDialog(editing: printer)
            }
        }
        // The farm's tile, the mini window and the title follow the camera the tab shows.
        page.onCameraChange = { [weak self, weak window, weak page] in
            guard let self, let window, let page else { return }
            window.farm.sync(window.tabs.all)
            window.selectionChanged(window.tabs.selected)
            if let mini = miniWindows[page.printerID] {
                mini.show(page.camera, session: page.session)
                library.setMiniWindow(.init(printerID: page.printerID, cameraID: page.camera.id,
                                            width: Int(mini.size.width), height: Int(mini.size.height)), for: page.printerID)
            }
        }
        window.add(page, select: select, at: position)
    }

    /// Starts, replaces and stops the printers' status clients to match the saved printers (once
    /// the keyring's codes are in). Adding, editing or removing a printer reaches it through the
    /// tabs; call it after any other change to a printer's address, code or serial.
    func syncPrinterStatus() {
        guard library.secretsLoaded else { return }
        statusHub.sync(library.config.printers)
        notifier.follow(library.config.printers)
        timelapses.follow(library.config.printers)
    }

    /// The saved printer of the selected tab (nil for the demo and command-line cameras).
    var selectedPrinter: Printer? {
        window?.tabs.selected.flatMap { library.printer(id: $0.camera.printerID) }
    }

    /// Opens the Edit Printer dialog for the selected tab's printer.
    func editSelectedPrinter() {
        if let printer = selectedPrinter { showDialog(editing: printer) }
    }

    /// Shows the farm view (every printer at once) or the tabs, and remembers which.
    func showFarm(_ shown: Bool) {
        guard let window else { return }
        window.setFarmShown(shown)
        library.setFarm(AppConfig.Farm(shown: shown, attentionFirst: library.config.farm.attentionFirst))
    }

    /// Orders the farm's tiles with those needing attention first, or in the printers' own order.
    func setAttentionFirst(_ on: Bool) {
        window?.farm.attentionFirst = on
        library.setFarm(AppConfig.Farm(shown: library.config.farm.shown, attentionFirst: on))
    }

    /// Leaves the farm view for printer `id`'s tab.
    func showTab(_ id: UUID) {
        guard let window, let page = window.tabs.page(id: id) else { return }
        window.tabs.select(page)
        showFarm(false)
    }

    /// Keeps the screen awake while a camera is fullscreen, as a video player does.
    private func inhibitScreensaver(_ inhibit: Bool) {
        if inhibit, inhibitCookie == 0, let window {
            inhibitCookie = gtk_application_inhibit(gcast(application), gcast(window.window),
                                                    GTK_APPLICATION_INHIBIT_IDLE, tr("Watching a printer camera fullscreen"))
        } else if !inhibit, inhibitCookie != 0 {
            gtk_application_uninhibit(gcast(application), inhibitCookie)
            inhibitCookie = 0
        }
    }

    private func rememberWindow() {
        guard let window else { return }
        let placement = window.placement
        library.setWindow(.init(width: Int(placement.width), height: Int(placement.height), maximized: placement.maximized))
        defer { flushSaves() }
        // Closing the main window quits: the open mini windows stay in the config and come back.
        self.window = nil
        for (id, mini) in miniWindows {
            library.setMiniWindow(.init(printerID: id, cameraID: mini.camera.id, width: Int(mini.size.width), height: Int(mini.size.height)), for: id)
            mini.close()
        }
    }
}
