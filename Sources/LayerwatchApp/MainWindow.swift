import CGtk
import Foundation
import GtkKit
import StreamKit

/// The main window: a header bar naming the printer, the printer's page, toasts, and the window
/// actions behind the control bar and the keyboard (snapshot, stats, fullscreen, reconnect).
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let page: PrinterPage
    private let header: UnsafeMutablePointer<GtkWidget>
    private let toasts: UnsafeMutablePointer<GtkWidget>

    init(application: OpaquePointer, page: PrinterPage, subtitle: String) {
        self.page = page
        window = adw_application_window_new(gcast(application))
        gtk_window_set_title(gcast(window), "\(page.name) — Layerwatch")
        gtk_window_set_default_size(gcast(window), 960, 640)
        header = adw_header_bar_new()
        adw_header_bar_set_title_widget(gcast(header), adw_window_title_new(page.name, subtitle))
        toasts = adw_toast_overlay_new()
        adw_toast_overlay_set_child(gcast(toasts), page.widget)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(content), header)
        gtk_box_append(gcast(content), toasts)
        gtk_widget_set_vexpand(toasts, 1)
        adw_application_window_set_content(gcast(window), content)
        installActions()
        // The window's handlers own this object: it lives exactly as long as the window.
        connectSignal(window, "notify::fullscreened") { (_: UnsafeMutableRawPointer?) in self.fullscreenChanged() }
        connectSignal(window, "destroy") { self.page.dismantle() }
    }

    func present() {
        gtk_window_present(gcast(window))
    }

    /// Shows a short message at the bottom of the window.
    func toast(_ text: String) {
        let toast = adw_toast_new(text)
        adw_toast_set_timeout(toast, 4)
        adw_toast_overlay_add_toast(gcast(toasts), toast)
    }

    var isFullscreen: Bool { gtk_window_is_fullscreen(gcast(window)) != 0 }

    private func installActions() {
        addAction(window, "snapshot") { [weak self] in self?.snapshot() }
        addToggleAction(window, "show-stats", initial: false) { [weak self] shown in self?.page.setStatsShown(shown) }
        addAction(window, "fullscreen") { [weak self] in self?.toggleFullscreen() }
        addAction(window, "leave-fullscreen") { [weak self] in
            guard let self, isFullscreen else { return }
            gtk_window_unfullscreen(gcast(window))
        }
        addAction(window, "reconnect") { [weak self] in self?.page.reconnect() }
    }

    private func snapshot() {
        page.takeSnapshot { [weak self] result in
            switch result {
            case .success(let url): self?.toast("Saved “\(url.lastPathComponent)” in Pictures/Layerwatch")
            case .failure(let failure): self?.toast(failure.description)
            }
        }
    }

    private func toggleFullscreen() {
        if isFullscreen { gtk_window_unfullscreen(gcast(window)) } else { gtk_window_fullscreen(gcast(window)) }
    }

    private func fullscreenChanged() {
        let fullscreen = isFullscreen
        gtk_widget_set_visible(header, fullscreen ? 0 : 1)
        page.setControlsHidden(fullscreen)
    }
}
