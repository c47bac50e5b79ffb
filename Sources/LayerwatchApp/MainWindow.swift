import CGtk
import Foundation
import GtkKit
import StreamKit

/// The main window: a header bar, one tab per printer, a banner for problems the user must know
/// about, toasts, and the window actions behind the control bar and the keyboard (snapshot, stats,
/// fullscreen, pop-out, reconnect, close tab). Actions act on the selected tab.
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let tabs: PrinterTabs
    private let header: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let toasts: UnsafeMutablePointer<GtkWidget>
    private let banner: Banner
    private var statsShown = false

    /// Pop the selected printer out into its mini window (or close it when it is open).
    var onPopOut: @MainActor (PrinterPage) -> Void = { _ in }
    /// The window entered or left fullscreen.
    var onFullscreenChange: @MainActor (Bool) -> Void = { _ in }
    /// Open the Add Printer dialog.
    var onAddPrinter: @MainActor () -> Void = {}
    /// Open the Edit Printer dialog for a tab's printer (ignored for tabs that aren't saved printers).
    var onEditPrinter: @MainActor (PrinterPage) -> Void = { _ in }

    init(application: OpaquePointer?, tabs: PrinterTabs) {
        self.tabs = tabs
        window = adw_application_window_new(application.map { gcast($0) })
        gtk_window_set_title(gcast(window), "Layerwatch")
        gtk_window_set_default_size(gcast(window), 960, 680)
        header = adw_header_bar_new()
        title = adw_window_title_new("Layerwatch", nil)
        adw_header_bar_set_title_widget(gcast(header), title)
        let add = gtk_button_new_from_icon_name("list-add-symbolic")!
        gtk_widget_set_tooltip_text(add, "Add Printer (Ctrl+T)")
        lw_accessible_set_label(add, "Add Printer")
        gtk_actionable_set_action_name(gcast(add), "win.add-printer")
        gtk_widget_add_css_class(add, "flat")
        adw_tab_bar_set_end_action_widget(gcast(tabs.bar), add)
        adw_header_bar_pack_end(gcast(header), AppMenu.button())
        banner = Banner()
        toasts = adw_toast_overlay_new()
        let body = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(body), banner.widget)
        gtk_box_append(gcast(body), tabs.view)
        adw_toast_overlay_set_child(gcast(toasts), body)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(content), header)
        gtk_box_append(gcast(content), tabs.bar)
        gtk_box_append(gcast(content), toasts)
        gtk_widget_set_vexpand(toasts, 1)
        adw_application_window_set_content(gcast(window), content)
        let shortcuts = AppMenu.shortcutsWindow()
        gtk_application_window_set_help_overlay(gcast(window), gcast(shortcuts))
        g_object_unref(shortcuts.rawGObject)
        installActions()
        tabs.onSelectionChange = { [weak self] page in self?.selectionChanged(page) }
        // The window's handlers own this object: it lives exactly as long as the window.
        connectSignal(window, "notify::fullscreened") { (_: UnsafeMutableRawPointer?) in self.fullscreenChanged() }
        connectSignal(window, "destroy") { self.tabs.dismantleAll() }
    }

    func present() {
        gtk_window_present(gcast(window))
    }

    /// Shows a short message at the bottom of the window.
    func toast(_ text: String) {
        WindowChores.toast(text, in: toasts, seconds: 4)
    }

    /// Shows a problem the user must see until they dismiss it (a config file that could not be read).
    func showBanner(_ text: String) {
        banner.show(text)
    }

    var isFullscreen: Bool { gtk_window_is_fullscreen(gcast(window)) != 0 }

    /// The banner's message while it is shown.
    var bannerText: String? { banner.text }

    /// The window's size and state, to restore it next time.
    var placement: (width: Int32, height: Int32, maximized: Bool) {
        let (width, height) = WindowChores.size(of: window)
        return (width, height, gtk_window_is_maximized(gcast(window)) != 0)
    }

    /// Adds a printer's page as a tab, with the window's stats setting.
    func add(_ page: PrinterPage, select: Bool, at position: Int? = nil) {
        page.setStatsShown(statsShown)
        tabs.add(page, select: select, at: position)
    }

    private func installActions() {
        addAction(window, "snapshot") { [weak self] in self?.snapshot() }
        addToggleAction(window, "show-stats", initial: false) { [weak self] shown in
            guard let self else { return }
            statsShown = shown
            tabs.all.forEach { $0.setStatsShown(shown) }
        }
        addAction(window, "fullscreen") { [weak self] in self?.toggleFullscreen() }
        addAction(window, "leave-fullscreen") { [weak self] in
            guard let self, isFullscreen else { return }
            gtk_window_unfullscreen(gcast(window))
        }
        addAction(window, "reconnect") { [weak self] in self?.tabs.selected?.reconnect() }
        addAction(window, "pop-out") { [weak self] in
            guard let self, let page = tabs.selected else { return }
            onPopOut(page)
        }
        addAction(window, "close-tab") { [weak self] in self?.tabs.requestCloseSelected() }
        addAction(window, "add-printer") { [weak self] in self?.onAddPrinter() }
        addAction(window, "edit-printer") { [weak self] in
            guard let self, let page = tabs.selected else { return }
            onEditPrinter(page)
        }
    }

    private func snapshot() {
        guard let page = tabs.selected else { return }
        page.takeSnapshot { [weak self] result in
            switch result {
            case .success(let url): self?.toast("Saved “\(url.lastPathComponent)” in Pictures/Layerwatch")
            case .failure(let failure): self?.toast(failure.description)
            }
        }
    }

    /// Names the selected printer in the title.
    func selectionChanged(_ page: PrinterPage?) {
        adw_window_title_set_title(gcast(title), page?.name ?? "Layerwatch")
        adw_window_title_set_subtitle(gcast(title), page?.camera.subtitle ?? "")
        gtk_window_set_title(gcast(window), page.map { "\($0.name) — Layerwatch" } ?? "Layerwatch")
    }

    private func toggleFullscreen() {
        if isFullscreen { gtk_window_unfullscreen(gcast(window)) } else { gtk_window_fullscreen(gcast(window)) }
    }

    private func fullscreenChanged() {
        let fullscreen = isFullscreen
        onFullscreenChange(fullscreen)
        gtk_widget_set_visible(header, fullscreen ? 0 : 1)
        gtk_widget_set_visible(tabs.bar, fullscreen ? 0 : 1)
        tabs.all.forEach { $0.setControlsHidden(fullscreen) }
    }
}
