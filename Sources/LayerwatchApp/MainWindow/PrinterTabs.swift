import CGtk
import Foundation
import GtkKit
import StatusKit
import StreamKit

/// One tab per printer (libadwaita's tab view and bar: reorderable, with close buttons and the
/// usual Ctrl+PgUp/PgDn and Alt+1…9 shortcuts). Each tab shows its camera's state (a spinner while
/// connecting, a warning sign when failed, nothing more while live), a red dot while the camera
/// records, and its print's: the percentage after the name while a print runs or is paused, the
/// print's state and time left in the tooltip, and libadwaita's attention mark while a print is
/// paused or has failed. Closing a tab is only a request: the owner decides. A page can be kept
/// with its tab closed (`closeTab`): it goes on following its printer (the farm's tile and the
/// mini window show its sessions) and keeps its place among the pages, where its tab comes back
/// (`reopen`).
@MainActor
final class PrinterTabs {
    let view: UnsafeMutablePointer<GtkWidget>
    let bar: UnsafeMutablePointer<GtkWidget>
    private let ownership: [GObjectRef<UnsafeMutablePointer<GtkWidget>>]
    /// Every page in the printers' order, each with its tab while it has one.
    private var pages: [(page: PrinterPage, tab: OpaquePointer?)] = []
    /// The tab being closed by `remove` or `closeTab`: libadwaita may close it.
    private var approvedClose: OpaquePointer?
    /// The page of a closed tab that the farm selected (its tile has the focus), until a tab is
    /// selected again.
    private var selectedWithoutTab: PrinterPage?

    /// The user pressed a tab's close button (or Ctrl+W): decide, then call `remove`, `closeTab` or nothing.
    var onCloseRequest: @MainActor (PrinterPage) -> Void = { _ in }
    /// The selected tab changed.
    var onSelectionChange: @MainActor (PrinterPage?) -> Void = { _ in }
    /// A page's session changed state.
    var onPageStateChange: @MainActor () -> Void = {}
    /// Pages were added or removed, tabs closed, reopened or reordered.
    var onOrderChange: @MainActor () -> Void = {}

    init() {
        view = gcast(adw_tab_view_new())
        bar = gcast(adw_tab_bar_new())
        ownership = [GObjectRef(adopting: view), GObjectRef(adopting: bar)]
        adw_tab_bar_set_view(gcast(bar), gcast(view))
        adw_tab_bar_set_autohide(gcast(bar), false.gboolean)
        gtk_widget_add_css_class(bar, "printer-tabs")
        gtk_widget_set_vexpand(view, true.gboolean)
        connectBoolSignal(view, "close-page") { [weak self] tab in
            guard let self, let tab, OpaquePointer(tab) != approvedClose, let page = page(for: OpaquePointer(tab)) else {
                return false // Approved by `remove` or `closeTab`: libadwaita closes it.
            }
            // Never close on our own: the owner decides and calls `remove` or `closeTab`.
            adw_tab_view_close_page_finish(gcast(view), OpaquePointer(tab), false.gboolean)
            onCloseRequest(page)
            return true
        }
        connectNotify(view, "selected-page") { [weak self] in
            guard let self else { return }
            selectedWithoutTab = nil
            onSelectionChange(selected)
        }
        connectSignal(view, "page-reordered") { [weak self] (_: UnsafeMutableRawPointer?, _: Int32) in
            guard let self else { return }
            followTabOrder()
            onOrderChange()
        }
    }

    /// Every page, with its tab open or closed, in the printers' order.
    var all: [PrinterPage] { pages.map(\.page) }

    /// The pages whose tab is open, in the tabs' order.
    var open: [PrinterPage] { pages.filter { $0.tab != nil }.map(\.page) }

    /// Whether `page`'s tab is closed (the page is kept).
    func isClosed(_ page: PrinterPage) -> Bool {
        pages.contains { $0.page === page && $0.tab == nil }
    }

    var selected: PrinterPage? {
        selectedWithoutTab ?? adw_tab_view_get_selected_page(gcast(view)).flatMap { page(for: $0) }
    }

    func page(id: UUID) -> PrinterPage? {
        pages.first { $0.page.printerID == id }?.page
    }

    /// Adds `page` at `position` among all pages (the end when nil), with its tab, or with its tab
    /// closed.
    func add(_ page: PrinterPage, select: Bool, at position: Int? = nil, closed: Bool = false) {
        let index = min(max(position ?? pages.count, 0), pages.count)
        pages.insert((page, nil), at: index)
        page.onStateChange = { [weak self, weak page] _ in
            guard let self, let page else { return }
            describe(page)
            onPageStateChange()
        }
        page.onStatusChange = { [weak self, weak page] in
            guard let self, let page else { return }
            describe(page)
        }
        if !closed { openTab(at: index, select: select) }
        onOrderChange()
    }

    /// Gives the page at `index` its tab, among the open ones where its place says.
    private func openTab(at index: Int, select: Bool) {
        let page = pages[index].page
        let before = pages[..<index].filter { $0.tab != nil }.count
        let tab = adw_tab_view_insert(gcast(view), page.widget, Int32(before))!
        pages[index].tab = tab
        describe(page)
        if select { self.select(page) }
        // The view selected its first tab while inserting it, before the page was recorded.
        if Bool(gboolean: adw_tab_page_get_selected(tab)) { onSelectionChange(page) }
    }

    /// Closes `page`'s tab and keeps the page: it still follows its printer and keeps its place.
    func closeTab(_ page: PrinterPage) {
        guard let index = pages.firstIndex(where: { $0.page === page }), let tab = pages[index].tab else { return }
        approvedClose = tab
        adw_tab_view_close_page(gcast(view), tab)
        approvedClose = nil
        pages[index].tab = nil
        onOrderChange()
    }

    /// Gives `page` its tab again, at its place among the open ones.
    func reopen(_ page: PrinterPage, select: Bool) {
        guard let index = pages.firstIndex(where: { $0.page === page }), pages[index].tab == nil else {
            if select { self.select(page) }
            return
        }
        if selectedWithoutTab === page { selectedWithoutTab = nil }
        openTab(at: index, select: select)
        onOrderChange()
    }

    /// Selects `page`'s tab; with its tab closed, the page becomes the selection until a tab is
    /// selected (the farm's focused tile).
    func select(_ page: PrinterPage) {
        guard let entry = pages.first(where: { $0.page === page }) else { return }
        guard let tab = entry.tab else {
            guard selectedWithoutTab !== page else { return }
            selectedWithoutTab = page
            return onSelectionChange(page)
        }
        let wasWithoutTab = selectedWithoutTab != nil
        selectedWithoutTab = nil
        if adw_tab_view_get_selected_page(gcast(view)) == tab {
            if wasWithoutTab { onSelectionChange(page) }
        } else {
            adw_tab_view_set_selected_page(gcast(view), tab)
        }
    }

    /// Makes the selected tab the selection again (the farm, where a closed tab's page may be
    /// selected, is left).
    func selectOpenTab() {
        guard selectedWithoutTab != nil else { return }
        selectedWithoutTab = nil
        onSelectionChange(selected)
    }

    /// Removes the page and its tab and dismantles it (the session stops if nothing else shows it).
    func remove(_ page: PrinterPage) {
        guard let index = pages.firstIndex(where: { $0.page === page }) else { return }
        if let tab = pages[index].tab {
            approvedClose = tab
            adw_tab_view_close_page(gcast(view), tab)
            approvedClose = nil
        }
        pages.removeAll { $0.page === page }
        if selectedWithoutTab === page { selectOpenTab() }
        page.forgetListeners()
        page.dismantle()
        onOrderChange()
    }

    /// Dismantles every page (their window is going away); the views leave their sessions.
    func dismantleAll() {
        for (page, _) in pages {
            page.forgetListeners()
            page.dismantle()
        }
        pages.removeAll()
        selectedWithoutTab = nil
    }

    /// Asks to close the selected tab, as its close button would.
    func requestCloseSelected() {
        guard let selected, !isClosed(selected) else { return }
        onCloseRequest(selected)
    }

    /// Moves `page` to `position` among all pages (its tab among the open ones); its owner hears
    /// of the new order.
    func move(_ page: PrinterPage, to position: Int) {
        guard let index = pages.firstIndex(where: { $0.page === page }) else { return }
        let entry = pages.remove(at: index)
        pages.insert(entry, at: min(max(position, 0), pages.count))
        if let tab = entry.tab {
            let target = Int32(self.open.firstIndex { $0 === page } ?? 0)
            if adw_tab_view_get_page_position(gcast(view), tab) != target {
                adw_tab_view_reorder_page(gcast(view), tab, target)  // heard through "page-reordered"
                return
            }
        }
        onOrderChange()
    }

    /// Where `page` is now among all pages.
    func position(of page: PrinterPage) -> Int? {
        pages.firstIndex { $0.page === page }
    }

    /// Puts the open tabs' pages in the order the user dragged them to; the closed tabs' pages
    /// keep their places.
    private func followTabOrder() {
        let count = Int(adw_tab_view_get_n_pages(gcast(view)))
        var inView = (0..<count).compactMap { index in
            let tab = adw_tab_view_get_nth_page(gcast(view), Int32(index))!
            return page(for: tab).map { (page: $0, tab: Optional(tab)) }
        }.makeIterator()
        for index in pages.indices where pages[index].tab != nil {
            if let entry = inView.next() { pages[index] = entry }
        }
    }

    private func tab(for page: PrinterPage) -> OpaquePointer? {
        pages.first { $0.page === page }?.tab
    }

    private func page(for tab: OpaquePointer) -> PrinterPage? {
        pages.first { $0.tab == tab }?.page
    }

    /// The tab's title, state icon, spinner, recording dot, tooltips and attention mark for the
    /// page's camera and print. The percentage goes after the name, where it reads at a glance on
    /// every tab (libadwaita 1.2 has no progress of its own on a tab), and only while the print runs
    /// or is paused, so an idle printer's tab is just its name (`TabTitle` keeps the figure whole).
    /// The camera's state is GNOME's usual tab icon: a spinner while connecting, nothing while live
    /// (the normal case, as a loaded web page), a warning sign when it failed; the indicator is kept
    /// for the one state worth a mark on every tab: the red dot while the printer's camera records.
    func describe(_ page: PrinterPage) {
        guard let tab = tab(for: page) else { return }
        // A printer watched without a picture has no camera state to show: no spinner, no sign.
        let camera = page.session.map { Self.cameraState(page.state, terms: $0.terms) } ?? (loading: false, icon: nil, tooltip: tr("No camera"))
        adw_tab_page_set_loading(tab, camera.loading.gboolean)
        let icon = camera.icon.map { GObjectRef(adopting: g_themed_icon_new($0)!) }
        adw_tab_page_set_icon(tab, icon.map { gcast($0.pointer) })
        let recording = page.isRecording ? GObjectRef(adopting: g_themed_icon_new(Self.recordingIcon)!) : nil
        adw_tab_page_set_indicator_icon(tab, recording.map { gcast($0.pointer) })
        adw_tab_page_set_indicator_tooltip(tab, page.isRecording ? markupEscaped(tr("Recording")) : "")
        let print = page.printSummary
        let underWay = print.map { [.printing, .paused].contains($0.state) } ?? false
        let title = TabTitle(name: page.name, percent: underWay ? print?.percent : nil)
        adw_tab_page_set_title(tab, title.shown)
        adw_tab_page_set_needs_attention(tab, (print.map { [.paused, .failed].contains($0.state) } ?? false).gboolean)
        // The tooltip is markup; a failure's text can quote what the camera or printer sent.
        let lines = [title.full, camera.tooltip] + (page.isRecording ? [tr("Recording")] : []) + (print.map { [$0.oneLine] } ?? [])
        adw_tab_page_set_tooltip(tab, markupEscaped(lines.joined(separator: "\n")))
    }

    /// The recording dot: the record icon, red (`.printer-tabs .tab-indicator` in style.css).
    static let recordingIcon = "media-record-symbolic"

    private static func cameraState(_ state: SessionState, terms: CameraTerms?) -> (loading: Bool, icon: String?, tooltip: String) {
        let loading: Bool, icon: String?, tooltip: String
        switch state {
        case .idle, .connecting:
            (loading, icon, tooltip) = (true, nil, tr("Connecting"))
        case .live:
            (loading, icon, tooltip) = (false, nil, tr("Live"))
        case .reconnecting(_, _, let cause):
            (loading, icon, tooltip) = (true, nil, String(format: tr("Reconnecting — %@"), cause.userMessage(in: terms)))
        case .failed(let failure):
            (loading, icon, tooltip) = (false, "dialog-warning-symbolic", failure.userMessage(in: terms))
        case .stopped:
            (loading, icon, tooltip) = (false, nil, tr("Stopped"))
        }
        return (loading, icon, tooltip)
    }
}
