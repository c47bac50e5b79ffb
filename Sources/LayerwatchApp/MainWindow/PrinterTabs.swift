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
/// paused or has failed. Closing a tab is only a
/// request: the owner asks the user before anything is removed.
@MainActor
final class PrinterTabs {
    let view: UnsafeMutablePointer<GtkWidget>
    let bar: UnsafeMutablePointer<GtkWidget>
    private let ownership: [GObjectRef<UnsafeMutablePointer<GtkWidget>>]
    private var pages: [(page: PrinterPage, tab: OpaquePointer)] = []

    /// The user pressed a tab's close button (or Ctrl+W): decide, then call `remove` or nothing.
    var onCloseRequest: @MainActor (PrinterPage) -> Void = { _ in }
    /// The selected tab changed.
    var onSelectionChange: @MainActor (PrinterPage?) -> Void = { _ in }
    /// A page's session changed state.
    var onPageStateChange: @MainActor () -> Void = {}
    /// Tabs were added, removed or reordered.
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
            guard let self, let tab, let page = page(for: OpaquePointer(tab)), !page.isBeingRemoved else {
                return false // Approved by `remove`: libadwaita closes it.
            }
            // Never close on our own: the owner asks first and calls `remove` if the user agrees.
            adw_tab_view_close_page_finish(gcast(view), OpaquePointer(tab), false.gboolean)
            onCloseRequest(page)
            return true
        }
        connectNotify(view, "selected-page") { [weak self] in
            guard let self else { return }
            onSelectionChange(selected)
        }
        connectSignal(view, "page-reordered") { [weak self] (_: UnsafeMutableRawPointer?, _: Int32) in self?.onOrderChange() }
    }

    var all: [PrinterPage] {
        (0..<Int(adw_tab_view_get_n_pages(gcast(view)))).compactMap { index in
            page(for: adw_tab_view_get_nth_page(gcast(view), Int32(index)))
        }
    }

    var selected: PrinterPage? {
        adw_tab_view_get_selected_page(gcast(view)).flatMap { page(for: $0) }
    }

    func page(id: UUID) -> PrinterPage? {
        pages.first { $0.page.printerID == id }?.page
    }

    /// Adds `page` as a tab at `position` (the end when nil).
    func add(_ page: PrinterPage, select: Bool, at position: Int? = nil) {
        let tab = position.map { adw_tab_view_insert(gcast(view), page.widget, Int32($0))! }
            ?? adw_tab_view_append(gcast(view), page.widget)!
        pages.append((page, tab))
        page.onStateChange = { [weak self, weak page] _ in
            guard let self, let page else { return }
            describe(page)
            onPageStateChange()
        }
        page.onStatusChange = { [weak self, weak page] in
            guard let self, let page else { return }
            describe(page)
        }
        describe(page)
        if select { self.select(page) }
        // The view selected its first tab while appending it, before the page was recorded.
        if Bool(gboolean: adw_tab_page_get_selected(tab)) { onSelectionChange(page) }
        onOrderChange()
    }

    func select(_ page: PrinterPage) {
        guard let tab = tab(for: page) else { return }
        adw_tab_view_set_selected_page(gcast(view), tab)
    }

    /// Removes the tab and dismantles its page (the session stops if nothing else shows it).
    func remove(_ page: PrinterPage) {
        guard let tab = tab(for: page) else { return }
        page.isBeingRemoved = true
        adw_tab_view_close_page(gcast(view), tab)
        pages.removeAll { $0.page === page }
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
    }

    /// Asks to close the selected tab, as its close button would.
    func requestCloseSelected() {
        guard let selected else { return }
        onCloseRequest(selected)
    }

    /// Moves `page`'s tab to `position` (its owner hears of the new order).
    func move(_ page: PrinterPage, to position: Int) {
        guard let tab = tab(for: page) else { return }
        adw_tab_view_reorder_page(gcast(view), tab, Int32(position))
    }

    /// Where `page`'s tab is now.
    func position(of page: PrinterPage) -> Int? {
        guard let tab = tab(for: page) else { return nil }
        return Int(adw_tab_view_get_page_position(gcast(view), tab))
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
        let camera = page.session.map { Self.cameraState(page.state, source: $0.source) } ?? (loading: false, icon: nil, tooltip: tr("No camera"))
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

    private static func cameraState(_ state: SessionState, source: StreamSource) -> (loading: Bool, icon: String?, tooltip: String) {
        let loading: Bool, icon: String?, tooltip: String
        switch state {
        case .idle, .connecting:
            (loading, icon, tooltip) = (true, nil, tr("Connecting"))
        case .live:
            (loading, icon, tooltip) = (false, nil, tr("Live"))
        case .reconnecting(_, _, let cause):
            (loading, icon, tooltip) = (true, nil, String(format: tr("Reconnecting — %@"), cause.userMessage(for: source)))
        case .failed(let failure):
            (loading, icon, tooltip) = (false, "dialog-warning-symbolic", failure.userMessage(for: source))
        case .stopped:
            (loading, icon, tooltip) = (false, nil, tr("Stopped"))
        }
        return (loading, icon, tooltip)
    }
}
