import CGtk
import Foundation
import GtkKit
import StreamKit

/// The pop-out mini window (the desktop's picture-in-picture): a small window titled
/// "<printer> - PiP" that stays on top where the desktop allows, showing the same session as the
/// printer's tab (a second view, never a second connection) converted at its own small size.
/// Hovering shows buttons to go back to the tab or close.
@MainActor
final class MiniWindow {
    nonisolated static let defaultSize = (width: Int32(480), height: Int32(270))

    let camera: Camera
    let window: UnsafeMutablePointer<GtkWidget>
    let status = StatusOverlay()
    private(set) var keepAbove: KeepAbove.Outcome?
    private var cameraHost: RepresentableHost<ObjectIdentifier, CameraView>!
    private let session: StreamSession
    private let controls: UnsafeMutablePointer<GtkWidget>
    private let toasts: UnsafeMutablePointer<GtkWidget>
    private var displaySize = PixelSize.full

    /// The user asked to go back to the tab (the window closes itself afterwards).
    var onReturnToTab: @MainActor () -> Void = {}
    /// The window was closed, by the user or the app.
    var onClosed: @MainActor () -> Void = {}

    var picture: UnsafeMutablePointer<GtkWidget>? { cameraHost.widget }

    init(camera: Camera, session: StreamSession, application: OpaquePointer?, size: (Int32, Int32) = MiniWindow.defaultSize) {
        self.camera = camera
        self.session = session
        window = adw_window_new()
        if let application { gtk_window_set_application(gcast(window), gcast(application)) }
        gtk_window_set_title(gcast(window), "\(camera.name) - PiP")
        gtk_window_set_default_size(gcast(window), size.0, size.1)
        gtk_widget_add_css_class(window, "mini-window")

        let overlay = gtk_overlay_new()!
        gtk_widget_add_css_class(overlay, "camera-area")
        controls = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)
        gtk_widget_add_css_class(controls, "mini-controls")
        gtk_widget_set_halign(controls, GTK_ALIGN_END)
        gtk_widget_set_valign(controls, GTK_ALIGN_START)
        gtk_widget_set_opacity(controls, 0)
        toasts = adw_toast_overlay_new()
        let handle = gtk_window_handle_new()!
        gtk_window_handle_set_child(gcast(handle), toasts)
        adw_toast_overlay_set_child(gcast(toasts), overlay)
        adw_window_set_content(gcast(window), handle)

        cameraHost = RepresentableHost(id: ObjectIdentifier(session), cameraView())
        gtk_overlay_set_child(gcast(overlay), cameraHost.widget)
        gtk_overlay_add_overlay(gcast(overlay), status.widget)
        gtk_overlay_add_overlay(gcast(overlay), controls)
        gtk_widget_add_css_class(status.widget, "compact")
        status.onRetry = { [weak self] in self?.session.restart() }
        addButton("go-previous-symbolic", "Back to the Tab") { [weak self] in self?.returnToTab() }
        addButton("window-close-symbolic", "Close Mini Window") { [weak self] in self?.close() }
        showControlsOnHover(overlay)

        // The window's handlers own this object: it lives exactly as long as the window.
        connectSignal(window, "notify::default-width") { (_: UnsafeMutableRawPointer?) in self.sizeChanged() }
        connectSignal(window, "notify::default-height") { (_: UnsafeMutableRawPointer?) in self.sizeChanged() }
        cameraHost.dismantleOnDestroy(of: window)
        connectSignal(window, "destroy") { self.onClosed() }
        sizeChanged()
    }

    /// Shows the window and asks for it to stay on top; on Wayland the outcome carries the hint.
    func present() {
        gtk_window_present(gcast(window))
        let aspect = session.stats.sourceSize.map { (Int32($0.width), Int32($0.height)) } ?? (16, 9)
        keepAbove = KeepAbove.apply(to: window, aspect: aspect)
    }

    func close() {
        gtk_window_destroy(gcast(window))
    }

    /// A short message inside the mini window.
    func toast(_ text: String) {
        WindowChores.toast(text, in: toasts, seconds: 8)
    }

    /// The window's current size (for saving it).
    var size: (width: Int32, height: Int32) {
        WindowChores.size(of: window)
    }

    private func returnToTab() {
        onReturnToTab()
        close()
    }

    private func cameraView() -> CameraView {
        CameraView(session: session, displaySize: displaySize) { [weak self] state in
            self?.status.apply(state, name: self?.camera.name ?? "")
        }
    }

    /// The picture fills the window: its size, in device pixels, is the conversion size.
    private func sizeChanged() {
        let (width, height) = size
        let scale = Int(gtk_widget_get_scale_factor(window))
        let newSize = PixelSize(width: Int(width) * scale, height: Int(height) * scale)
        guard newSize != displaySize, cameraHost != nil else { return }
        displaySize = newSize
        cameraHost.update(cameraView())
    }

    private func addButton(_ icon: String, _ tooltip: String, _ action: @escaping @MainActor () -> Void) {
        let button = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(button, tooltip)
        lw_accessible_set_label(button, tooltip)
        gtk_widget_add_css_class(button, "circular")
        gtk_widget_add_css_class(button, "osd")
        connectSignal(button, "clicked") { action() }
        gtk_box_append(gcast(controls), button)
    }

    private func showControlsOnHover(_ area: UnsafeMutablePointer<GtkWidget>) {
        let motion = gtk_event_controller_motion_new()!
        connectSignal(motion, "notify::contains-pointer") { [controls] (_: UnsafeMutableRawPointer?) in
            let inside = gtk_event_controller_motion_contains_pointer(gcast(motion)) != 0
            gtk_widget_set_opacity(controls, inside ? 1 : 0)
        }
        gtk_widget_add_controller(area, motion)
    }
}
