import CGtk
import Foundation
import GtkKit
import JournalKit
import PrinterKit
import StreamKit

/// The main window: a header bar, one tab per printer (a saved printer's tab can be closed and
/// reopened from the Printers menu: closing hides, never removes) or the farm view of all of them, a banner for
/// problems the user must know about (and what ended while they were away), toasts, and the window's half of the feature table: its
/// actions (farm view, fullscreen, pop-out, printers), kept enabled only where they apply, and the
/// selected tab's picture actions (`CameraActions`: snapshot, record, stats, zoom, reconnect) and
/// printer actions (`PrinterActions`) as its own, so shortcuts act on the selected printer: the
/// selected tab, which in the farm view is the focused tile's printer. It wires its own parts (tabs ↔ farm ↔ selection, each saved
/// in the library), opens and closes the printers' pages (each following its printer's status in
/// the hub, which runs whether or not the window is open), and reveals a printer, at one of its
/// cameras (`reveal(printer:camera:)`), for whoever asks. It restores itself as it was left (its
/// size, the saved tabs and selection, the farm) and keeps the screen awake while fullscreen.
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let tabs = PrinterTabs()
    let farm: FarmView
    private unowned let context: FeatureContext
    private unowned let library: PrinterLibrary
    private let sessions: SessionRegistry
    private let hub: PrinterStatusHub
    /// The running recordings, where its pages list theirs.
    private let recordings: Recordings
    /// Sends the print controls' commands (each page's `PrinterActions`).
    private let commands: PrintCommands
    /// Print File (each view's `PrinterActions`).
    private let printFiles: PrintFiles
    /// The folders chosen in Preferences, which Save Snapshot and Record follow.
    private var foldersObservation: PrinterLibrary.Observation?
    /// Whether selecting a tab is saved: once the saved tabs are restored (`restore`), so opening
    /// them does not overwrite the saved selection.
    private var remembersSelection = false
    private let header: UnsafeMutablePointer<GtkWidget>
    /// The header bar's primary menu (F10 opens it).
    let menuButton: UnsafeMutablePointer<GtkWidget>
    /// The header bar's Printers menu, which opens closed tabs again.
    let printersMenu: PrintersMenu
    private let title: UnsafeMutablePointer<GtkWidget>
    private let toasts: UnsafeMutablePointer<GtkWidget>
    private let banner: Banner
    /// The tabs' view, the farm's or the History page.
    private let body: UnsafeMutablePointer<GtkWidget>
    /// The print journal the History page reads; nil when the application has none.
    private let journal: JournalStore?
    /// The History page, made the first time it shows.
    private(set) var history: HistoryPage?
    /// What showed before the History page: "tabs" or "farm", shown again when it goes.
    private var beforeHistory = "tabs"
    /// The tabs' pages, the welcome page while there is no printer (once the saved ones are up), or
    /// the closed tabs' page while every tab is closed.
    private let tabsArea: UnsafeMutablePointer<GtkWidget>
    let welcome = WelcomePage()
    /// Told when the welcome page comes and goes (discovery runs while it shows).
    var onWelcomeChange: @MainActor (Bool) -> Void = { _ in }
    /// Whether the saved printers' tabs have been opened (the welcome page waits for that).
    private var restored = false
    /// The window's actions, kept enabled where their features apply.
    private var actions: InstalledFeatures!
    /// Set once the window is gone: what still arrives for it (a recording that Quit closed, a
    /// timelapse) is not shown.
    private var isDestroyed = false
    /// The selected printer's status, which the words of the farm tiles' menu follow.
    private var selectedStatus: PrinterStatusHub.Observation?

    /// Where Save Snapshot writes its PNGs (the Preferences' folder).
    var snapshotFolder = SavedFiles.folder(.pictures)
    /// Where Record writes its videos (the Preferences' folder).
    var recordingFolder = SavedFiles.folder(.videos)
    /// The screensaver held off while the window is fullscreen.
    private let idle: IdleInhibition
    /// Where the idle printers' tabs and tiles find their last prints (the journal's).
    private let lastPrints: LastPrints?
    /// A tab showed another of its printer's cameras (its mini window follows).
    var onCameraChange: @MainActor (PrinterPage) -> Void = { _ in }

    init(application: OpaquePointer, context: FeatureContext, library: PrinterLibrary, sessions: SessionRegistry,
         hub: PrinterStatusHub, recordings: Recordings, commands: PrintCommands, printFiles: PrintFiles, journal: PrintJournal? = nil) {
        self.context = context
        self.journal = journal?.store
        lastPrints = journal?.lastPrints
        self.recordings = recordings
        self.library = library
        self.sessions = sessions
        self.hub = hub
        self.commands = commands
        self.printFiles = printFiles
        farm = FarmView(hub: hub)
        farm.lastPrints = lastPrints
        idle = IdleInhibition(application: application)
        window = adw_application_window_new(gcast(application))
        gtk_window_set_title(gcast(window), "Layerwatch")
        // The size and state it had when it closed last.
        let saved = library.config.window
        gtk_window_set_default_size(gcast(window), Int32(saved.width), Int32(saved.height))
        if saved.maximized { gtk_window_maximize(gcast(window)) }
        header = adw_header_bar_new()
        title = adw_window_title_new("Layerwatch", nil)
        adw_header_bar_set_title_widget(gcast(header), title)
        for (feature, icon) in Feature.placed(\.tabBarIcon) {
            let button = gtk_button_new_from_icon_name(icon)!
            gtk_widget_set_tooltip_text(button, feature.tooltip)
            setAccessibleLabel(button, feature.title)
            gtk_actionable_set_action_name(gcast(button), feature.actionName)
            gtk_widget_add_css_class(button, "flat")
            adw_tab_bar_set_end_action_widget(gcast(tabs.bar), button)
        }
        for (feature, icon) in Feature.placed(\.headerBarIcon) {
            let button = gtk_toggle_button_new()!
            gtk_button_set_icon_name(gcast(button), icon)
            gtk_widget_set_tooltip_text(button, feature.tooltip)
            setAccessibleLabel(button, feature.title)
            gtk_actionable_set_action_name(gcast(button), feature.actionName)
            adw_header_bar_pack_start(gcast(header), button)
        }
        printersMenu = PrintersMenu(window: window)
        adw_header_bar_pack_start(gcast(header), printersMenu.button)
        menuButton = AppMenu.button()
        adw_header_bar_pack_end(gcast(header), menuButton)
        banner = Banner()
        toasts = adw_toast_overlay_new()
        body = gtk_stack_new()
        tabsArea = gtk_stack_new()
        gtk_stack_add_named(gcast(tabsArea), tabs.view, "pages")
        gtk_stack_add_named(gcast(tabsArea), welcome.widget, "welcome")
        gtk_stack_add_named(gcast(tabsArea), ClosedTabsPage.make(), "closed")
        gtk_stack_add_named(gcast(body), tabsArea, "tabs")
        gtk_stack_add_named(gcast(body), farm.widget, "farm")
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(column), banner.widget)
        gtk_box_append(gcast(column), body)
        adw_toast_overlay_set_child(gcast(toasts), column)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(content), header)
        gtk_box_append(gcast(content), tabs.bar)
        gtk_box_append(gcast(content), toasts)
        gtk_widget_set_vexpand(toasts, true.gboolean)
        adw_application_window_set_content(gcast(window), content)
        if let shortcuts = AppMenu.shortcutsWindow() {
            gtk_application_window_set_help_overlay(gcast(window), gcast(shortcuts.pointer))
        }
        actions = InstalledFeatures(Feature.all.filter { $0.scope == .window }, on: window, for: context)
        wireParts()
        listPrinters()
        // Shown (at start too, before the window had a focus to give), the farm puts the keyboard
        // on the selected printer's tile, so the arrows work at once.
        connectSignal(farm.widget, "map") { [weak self] in
            guard let self, farm.focusedTile == nil, let selected = tabs.selected else { return }
            farm.focus(selected.printerID)
        }
        CameraKeys.install(on: window) { [weak self] in self?.tabs.selected?.printerActions?.group.pointer }
        keepAlive(self, untilDestroyed: window)
        connectNotify(window, "fullscreened") { [weak self] in self?.fullscreenChanged() }
        connectSignal(window, "destroy") { [weak self] in
            guard let self else { return }
            isDestroyed = true
            idle.set(false, for: window)
            farm.dismantleAll()
            tabs.dismantleAll()
            selectedStatus = nil
            hub.demo = nil  // the demo's simulated print goes with its tab
        }
        refreshFeatures()
    }

    /// Tabs, farm and selection follow each other, and the library keeps what they show.
    private func wireParts() {
        library.onProblem = { [weak self] message in self?.showBanner(message) }
        library.onSecretsNews = { [weak self] news in self?.toastLong(news) }
        library.onMoveOffer = { [weak self] printers in self?.offerMove(printers) }
        foldersObservation = library.observePreferences { [weak self] preferences in
            self?.snapshotFolder = SavedFiles.snapshotFolder(preferences)
            self?.recordingFolder = SavedFiles.recordingFolder(preferences)
        }
        tabs.onSelectionChange = { [weak self] page in
            guard let self else { return }
            selectionChanged(page)
            if remembersSelection { library.select(page?.printerID) }
        }
        tabs.onPageStateChange = { [weak self] in self?.refreshFeatures() }
        tabs.onOrderChange = { [weak self] in
            guard let self else { return }
            library.reorder(tabs.all.map(\.printerID))
            farm.sync(tabs.all)
            selectionChanged(tabs.selected)
            listPrinters()
            showPlaceholder()
        }
        printersMenu.onChoose = { [weak self] id, checked in
            guard let self else { return }
            if checked { reveal(printer: id) } else if let page = tabs.page(id: id) { closeTab(page) }
            focusSelectedPage()
        }
        printersMenu.onReopenAll = { [weak self] in
            self?.reopenAllTabs()
            self?.focusSelectedPage()
        }
        farm.attentionFirst = library.config.farm.attentionFirst
        farm.onActivate = { [weak self] id in self?.reveal(printer: id) }
        farm.onChoiceChange = { [weak self] in self?.refreshFeatures() }
        farm.onSelect = { [weak self] id in
            guard let self, let page = tabs.page(id: id) else { return }
            tabs.select(page)
        }
    }

    func present() {
        gtk_window_present(gcast(window))
    }

    /// Closes the window for good (Quit). Its menu goes first: an open popover's pointer grab
    /// would outlive the window.
    func close() {
        gtk_menu_button_popdown(gcast(menuButton))
        gtk_window_destroy(gcast(window))
    }

    /// Shows a short message at the bottom of the picture, never over the control bar: in the
    /// selected tab's picture (`PrinterPage.toasts`), or at the bottom of the window while the farm
    /// (which has no bar) or no tab shows. With `file`, the toast offers to open it and to show it
    /// in its folder (`SavedFileToast`).
    func toast(_ text: String, file: URL? = nil) {
        guard !isDestroyed else { return }
        WindowChores.toast(text, file: file, in: toastOverlay, seconds: file == nil ? 4 : 8)
    }

    /// Where `toast` shows one now: the selected tab's picture, or the window's bottom.
    private var toastOverlay: UnsafeMutablePointer<GtkWidget> { isFarmShown ? toasts : tabs.selected?.toasts ?? toasts }

    /// Shows a sentence too long for one line (where a printer's secret went, naming the file) as
    /// `toast` does, wrapped, for ten seconds.
    func toastLong(_ text: String) {
        guard !isDestroyed else { return }
        let toast = WindowChores.wrappingToast(text, width: 48)
        adw_toast_set_timeout(toast, 10)
        adw_toast_overlay_add_toast(gcast(toastOverlay), toast)
    }

    /// Offers to move the secrets of `printers` from `printers.json` into the keyring: a toast with
    /// "Move to Keyring" that stays until the user moves them or dismisses it (an offer, not news).
    private func offerMove(_ printers: [Printer]) {
        guard !isDestroyed else { return }
        let toast = WindowChores.wrappingToast(SecretsNews.offer(printers, path: library.store.fileURL.path), width: 48)
        adw_toast_set_button_label(toast, SecretsNews.moveButton)
        adw_toast_set_timeout(toast, 0)
        let ids = printers.map(\.id)
        connectSignal(toast, "button-clicked") { [weak self] in
            adw_toast_dismiss(toast)  // libadwaita 1.2 leaves a toast without timeout up after its button
            self?.library.moveSecretsToKeyring(ids)
        }
        adw_toast_overlay_add_toast(gcast(toastOverlay), toast)
    }

    /// Shows a problem the user must see until they dismiss it (a config file that could not be read).
    func showBanner(_ text: String) {
        banner.show(text)
    }

    /// Shows news the user may act on with `button` (what ended while they were away) in the
    /// banner, after any problem it shows.
    func showBannerNews(_ text: String, button: Banner.Button) {
        banner.showNews(text, button: button)
    }

    var isFullscreen: Bool { Bool(gboolean: gtk_window_is_fullscreen(gcast(window))) }

    /// The banner's message while it is shown.
    var bannerText: String? { banner.text }

    /// The button of the banner's message (hidden when it has none).
    var bannerButton: UnsafeMutablePointer<GtkWidget> { banner.button }

    /// Remembers the window's size and state in the library, to restore it next time.
    func rememberPlacement() {
        let (width, height) = WindowChores.size(of: window)
        library.setWindow(.init(width: Int(width), height: Int(height), maximized: Bool(gboolean: gtk_window_is_maximized(gcast(window)))))
    }

    /// Opens a tab for each of `printers` that has none yet (selecting those that are not saved
    /// printers: the command line's, the demo; those whose tab was closed stay closed), then the
    /// saved selection, which from then on is saved as it changes; shows the first of `problems`
    /// (saved printers that could not be opened, a config file that could not be read) in the
    /// banner, the demo's tab (`demo`) and the farm (`farm`) if asked, and presents the window.
    func restore(_ printers: [PrinterCameras], selecting id: UUID?, problems: [String] = [], demo: Bool = false, farm: Bool = false) {
        for printer in printers where tabs.page(id: printer.printerID) == nil {
            open(printer, select: library.printer(id: printer.printerID) == nil)
        }
        if let id, let page = tabs.page(id: id), !tabs.isClosed(page) { tabs.select(page) }
        remembersSelection = true
        restored = true
        showPlaceholder()
        problems.forEach(GLibLog.warning)
        if let problem = problems.first { showBanner(problem) }
        if demo { showDemo() }
        if farm { showFarm(true) }
        present()
    }

    /// Opens (or selects) the demo printer's tab, leaving the farm for it.
    func showDemo() {
        if let open = tabs.all.first(where: \.printer.isDemo) { return reveal(printer: open.printerID) }
        guard let demo = Camera.demo() else { return toast(tr("The demo clip is not installed.")) }
        self.open(PrinterCameras(camera: demo), select: true)
        if isFarmShown { showFarm(false) }
    }

    /// Whether the welcome page shows (no printer).
    var isWelcomeShown: Bool { shownArea == "welcome" }

    /// Whether the closed tabs' page shows (every printer's tab closed).
    var isClosedTabsPageShown: Bool { shownArea == "closed" }

    private var shownArea: String? {
        gtk_stack_get_visible_child_name(gcast(tabsArea)).map { String(cString: $0) }
    }

    /// The tabs where a tab is open; else, once the saved ones are up, the welcome page where there
    /// is no printer and the closed tabs' page where every tab is closed.
    private func showPlaceholder() {
        let area = !restored || !tabs.open.isEmpty ? "pages" : tabs.all.isEmpty ? "welcome" : "closed"
        guard area != shownArea else { return }
        let welcomed = isWelcomeShown
        gtk_stack_set_visible_child_name(gcast(tabsArea), area)
        if isWelcomeShown != welcomed { onWelcomeChange(isWelcomeShown) }
    }

    /// Lists the saved printers in the Printers menu, each checked while its tab is open.
    private func listPrinters() {
        printersMenu.show(tabs.all.compactMap { page in
            library.printer(id: page.printerID).map { PrintersMenu.Entry(id: $0.id, name: $0.name, open: !tabs.isClosed(page)) }
        })
    }

    /// Closes a saved printer's tab without removing anything: the printer stays saved and watched,
    /// its farm tile and mini window stay, and the Printers menu opens the tab again. Remembered.
    func closeTab(_ page: PrinterPage) {
        tabs.closeTab(page)
        library.setTabClosed(true, for: page.printerID)
    }

    /// Puts the keyboard in the selected tab's page (or on the window): a menu item that opened or
    /// closed a tab would otherwise keep it, hidden with its menu, where no shortcut is heard.
    private func focusSelectedPage() {
        if let page = tabs.selected, Bool(gboolean: gtk_widget_grab_focus(page.widget)) { return }
        gtk_window_set_focus(gcast(window), nil)
    }

    /// Opens every closed tab again, at their places.
    func reopenAllTabs() {
        for page in tabs.all where tabs.isClosed(page) {
            library.setTabClosed(false, for: page.printerID)
            tabs.reopen(page, select: false)
        }
    }

    /// Opens a printer's page as a tab at `position` among the pages (the end when nil; its tab
    /// stays closed if the user closed it), on each camera's one session, following the printer's
    /// status, with the window's stats setting.
    func open(_ printer: PrinterCameras, select: Bool, at position: Int? = nil) {
        let page = PrinterPage(printer: printer) { [sessions] in sessions.session(for: $0.source) }
        // The demo printer's simulated print is followed like a printer's status.
        if printer.isDemo { hub.demo = page.printerID }
        if let lastPrints { page.followLastPrint(in: lastPrints) }
        page.followStatus(in: hub)
        let printerID = page.printerID
        page.install(PrinterActions(Feature.all.filter { $0.scope == .printer }, printerID: printerID, hub: hub, commands: commands, printFiles: printFiles,
                                    library: library, context: context, page: { [weak page] in page },
                                    place: { [weak self, weak page] in
                                        guard let self, let page else { return nil }
                                        return .init(name: page.name, window: window, toast: { [weak self] in self?.toast($0) })
                                    }))
        if library.printer(id: printerID) != nil {
            page.surface?.onEditAccessCode = { [weak self] in
                guard let self, let printer = library.printer(id: printerID) else { return }
                context.editAccessCode(of: printer)
            }
        }
        // The farm's tile, the title and the mini window follow the camera the tab shows.
        page.onCameraChange = { [weak self, weak page] in
            guard let self, let page else { return }
            farm.sync(tabs.all)
            selectionChanged(tabs.selected)
            onCameraChange(page)
        }
        page.onMessage = { [weak self] text, file in self?.toast(text, file: file) }
        page.recordings = recordings
        page.folders = { [weak self] in
            (self?.snapshotFolder ?? SavedFiles.folder(.pictures), self?.recordingFolder ?? SavedFiles.folder(.videos))
        }
        page.onRecordingChange = { [weak self, weak page] in
            guard let self, let page else { return }
            tabs.describe(page)  // the red dot
            refreshFeatures()
        }
        tabs.add(page, select: select, at: position, closed: library.isTabClosed(printerID))
    }

    /// Closes the page's tab; its cameras' sessions go with their last views.
    func close(_ page: PrinterPage) {
        tabs.remove(page)
        page.sessions.forEach { sessions.forget($0.source) }
        if page.printer.isDemo { hub.demo = nil }
    }

    /// Brings up printer `id`: its tab (opened again if it was closed) selected, the farm left, the
    /// window presented.
    func reveal(printer id: UUID, camera: UUID? = nil) {
        guard let page = tabs.page(id: id) else { return }
        if tabs.isClosed(page) {
            library.setTabClosed(false, for: id)
            tabs.reopen(page, select: false)
        }
        if let camera, let index = page.cameras.firstIndex(where: { $0.id == camera }) { page.showCamera(at: index) }
        tabs.select(page)
        showFarm(false)
        present()
    }

    var isFarmShown: Bool { shownBody == "farm" }

    var isHistoryShown: Bool { shownBody == "history" }

    /// Printer `id` as Print File sends to it (its name, the camera its tab shows); nil without a tab.
    func printTarget(of id: UUID) -> PrintTarget? {
        tabs.page(id: id).map { PrintTarget(printerID: id, name: $0.name, camera: $0.camera, session: $0.session) }
    }

    /// The body's child that shows: "tabs", "farm" or "history".
    private var shownBody: String? {
        gtk_stack_get_visible_child_name(gcast(body)).map { String(cString: $0) }
    }

    /// Shows the History page (made the first time), or what showed before it. The tabs' pages
    /// and the farm's tiles are unmapped while it shows.
    func showHistory(_ shown: Bool) {
        guard shown != isHistoryShown else { return }
        if shown {
            guard let page = history ?? makeHistory() else { return }
            beforeHistory = isFarmShown ? "farm" : "tabs"
            gtk_stack_set_visible_child_name(gcast(body), "history")
            gtk_widget_set_visible(tabs.bar, false.gboolean)
            page.shown()
        } else {
            gtk_stack_set_visible_child_name(gcast(body), beforeHistory)
            gtk_widget_set_visible(tabs.bar, (beforeHistory == "tabs" && !isFullscreen).gboolean)
        }
        selectionChanged(tabs.selected)
    }

    /// Shows the History page with the prints that ended at or after `since` only.
    func showHistory(since: Date) {
        showHistory(true)
        history?.show(endedSince: since)
    }

    private func makeHistory() -> HistoryPage? {
        guard let journal else { return nil }
        let page = HistoryPage(store: journal)
        gtk_stack_add_named(gcast(body), page.widget, "history")
        history = page
        return page
    }

    /// Shows every printer at once, or the tabs again. The tab pages are unmapped while the farm
    /// shows (their sessions then convert only for the tiles), and the tiles while the tabs show.
    func setFarmShown(_ shown: Bool) {
        guard shown != isFarmShown || isHistoryShown else { return }
        gtk_stack_set_visible_child_name(gcast(body), shown ? "farm" : "tabs")
        gtk_widget_set_visible(tabs.bar, (!shown && !isFullscreen).gboolean)
        if !shown {
            tabs.selectOpenTab()  // a closed tab's page the farm selected
            farm.clearChoice()
        }
        selectionChanged(tabs.selected)
    }

    /// Shows the farm view or the tabs (`setFarmShown`), and remembers which.
    func showFarm(_ shown: Bool) {
        setFarmShown(shown)
        library.setFarm(AppConfig.Farm(shown: shown, attentionFirst: library.config.farm.attentionFirst))
    }

    /// Orders the farm's tiles with those needing attention first, or in the printers' own order.
    func setAttentionFirst(_ on: Bool) {
        farm.attentionFirst = on
        library.setFarm(AppConfig.Farm(shown: library.config.farm.shown, attentionFirst: on))
    }

    /// Whether the action of the feature named `name` can be used now: the window's, or the
    /// selected printer's (for tests).
    func isEnabled(_ name: String) -> Bool {
        actions.isEnabled(name) || tabs.selected?.printerActions?.isEnabled(name) == true
    }

    // MARK: Feature handlers

    func toggleFullscreen() {
        setFullscreen(!isFullscreen)
    }

    func setFullscreen(_ fullscreen: Bool) {
        if fullscreen { gtk_window_fullscreen(gcast(window)) } else { gtk_window_unfullscreen(gcast(window)) }
    }

    // MARK: Changes

    /// Names the selected printer in the title, or the farm and how many printers it shows.
    func selectionChanged(_ page: PrinterPage?) {
        followSelectedPicture(page)
        followSelectedPrinter(page)
        if isHistoryShown {
            adw_window_title_set_title(gcast(title), tr("History"))
            adw_window_title_set_subtitle(gcast(title), "")
            gtk_window_set_title(gcast(window), String(format: tr("%@ — Layerwatch"), tr("History")))
        } else if isFarmShown {
            let count = tabs.all.count
            adw_window_title_set_title(gcast(title), tr("Farm"))
            adw_window_title_set_subtitle(gcast(title), String(format: trPlural("%d printer", "%d printers", count), count))
            gtk_window_set_title(gcast(window), String(format: tr("%@ — Layerwatch"), tr("Farm")))
        } else {
            adw_window_title_set_title(gcast(title), page?.name ?? "Layerwatch")
            adw_window_title_set_subtitle(gcast(title), page?.subtitle ?? "")
            gtk_window_set_title(gcast(window), page.map { String(format: tr("%@ — Layerwatch"), $0.name) } ?? "Layerwatch")
        }
        // The farm tiles' menu speaks the selected printer's words as its status brings them.
        selectedStatus = page.map { hub.observe(printerID: $0.printerID) { [weak self] _ in self?.refreshFeatures() } }
        refreshFeatures()
    }

    /// Enables each action exactly where its feature applies now, shows each toggle's state, and
    /// titles the farm tiles' menu for the selected printer (each printer's own actions follow it:
    /// `PrinterActions`).
    func refreshFeatures() {
        guard !isDestroyed else { return }
        actions.refresh(context)
        farm.menu.refresh(tabs.selected?.printerActions)
    }

    /// Takes the selected tab's picture actions (`CameraActions`) as the window's own: GTK activates
    /// the application's accelerators on the window, which does not see a group inserted on a page.
    /// While the farm shows, only those of its tile's menu (the tiles do not zoom).
    private func followSelectedPicture(_ page: PrinterPage?) {
        if let group = isFarmShown ? page?.tileActions : page?.cameraActions {
            gtk_widget_insert_action_group(window, "camera", gcast(group.pointer))
        } else {
            gtk_widget_insert_action_group(window, "camera", nil)
        }
    }

    /// Takes the selected printer's actions (`PrinterActions`) as the window's own, for the same
    /// reason, with the tabs or the farm (the selected tile's printer) showing.
    private func followSelectedPrinter(_ page: PrinterPage?) {
        if let group = page?.printerActions?.group {
            gtk_widget_insert_action_group(window, "printer", gcast(group.pointer))
        } else {
            gtk_widget_insert_action_group(window, "printer", nil)
        }
    }

    private func fullscreenChanged() {
        let fullscreen = isFullscreen
        idle.set(fullscreen, for: window)
        gtk_widget_set_visible(header, (!fullscreen).gboolean)
        gtk_widget_set_visible(tabs.bar, (!fullscreen && shownBody == "tabs").gboolean)
        tabs.all.forEach { $0.setControlsHidden(fullscreen) }
        refreshFeatures()
    }
}
