import CGtk
import CameraKit
import Foundation
import GtkKit
import StreamKit

/// The pop-out mini window (the desktop's picture-in-picture): a small window titled
/// "<printer> - PiP" that stays on top where the desktop allows, showing the same session as the
/// printer's tab (a second camera surface, never a second connection) converted at its own small
/// size, with the print's status on one line. It shows the camera the printer's tab shows, and
/// follows the tab's camera switcher. Hovering shows buttons to switch a Bambu printer's chamber
/// light, open its menu (the print controls), go back to the tab or close.
@MainActor
final class MiniWindow {
    nonisolated static let defaultSize = (width: Int32(480), height: Int32(270))

    private(set) var camera: Camera
    let window: UnsafeMutablePointer<GtkWidget>
    let surface: CameraSurface
    /// The printer's status on one line over the picture's bottom edge.
    let status = PrintStatusBinding(style: .compact)
    let light = ChamberLightToggle(classes: ["circular", "osd"])
    private(set) var keepAbove: KeepAbove.Outcome?
    private let controls: UnsafeMutablePointer<GtkWidget>
    private let toasts: UnsafeMutablePointer<GtkWidget>
    /// The menu's button (its tooltip is off while the menu is open).
    let menuButton = gtk_menu_button_new()!
    /// Its printer's actions (the print controls, its cameras), which its keys and menu use.
    private var printerActions: PrinterActions?
    /// Where it was last seen on the screen (X11 only, see `WindowPosition`), or asked to be.
    private var lastPosition: (x: Int32, y: Int32)?

    /// The user asked to go back to the tab (the window closes itself afterwards).
    var onReturnToTab: @MainActor () -> Void = {}
    /// The window was closed, by the user or the app.
    var onClosed: @MainActor () -> Void = {}

    /// - Parameter position: where its top-left corner was (X11), to come back there; nil leaves
    ///   it to the desktop (always on Wayland, where apps do not place their windows).
    init(camera: Camera, session: StreamSession, application: OpaquePointer?, size: (Int32, Int32) = MiniWindow.defaultSize,
         position: (x: Int32, y: Int32)? = nil) {
        self.camera = camera
        lastPosition = position
        surface = CameraSurface(session: session, name: camera.name, style: .compact, orientation: camera.orientation)
        window = adw_window_new()
        if let application { gtk_window_set_application(gcast(window), gcast(application)) }
        gtk_window_set_title(gcast(window), KeepAboveHint.title(of: camera.fullName))
        gtk_window_set_default_size(gcast(window), size.0, size.1)
        gtk_widget_add_css_class(window, "mini-window")

        controls = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)
        gtk_widget_add_css_class(controls, "mini-controls")
        gtk_widget_set_halign(controls, GTK_ALIGN_END)
        gtk_widget_set_valign(controls, GTK_ALIGN_START)
        gtk_widget_set_opacity(controls, 0)
        status.strip.printerName = camera.name
        surface.addBottomOverlay(status.strip.widget)
        surface.addOverlay(controls)
        gtk_box_append(gcast(controls), light.button)
        gtk_box_append(gcast(controls), menuButton)
        toasts = adw_toast_overlay_new()
        let handle = gtk_window_handle_new()!
        gtk_window_handle_set_child(gcast(handle), toasts)
        adw_toast_overlay_set_child(gcast(toasts), surface.widget)
        adw_window_set_content(gcast(window), handle)
        addButton("go-previous-symbolic", tr("Back to the Tab")) { [weak self] in self?.returnToTab() }
        addButton("window-close-symbolic", tr("Close Mini Window")) { [weak self] in self?.close() }
        showControlsOnHover(surface.widget)
        // The zoom keys act on this picture: GTK activates the application's accelerators on the window.
        CameraActions.install(for: surface, on: window)

        keepAlive(self, untilDestroyed: window)
        surface.dismantleOnDestroy(of: window)
        connectSignal(window, "destroy") { [weak self] in self?.onClosed() }
        // Closed by the window manager (its close button, Alt+F4): where it was, while it still is.
        connectBoolSignal(window, "close-request") { [weak self] in
            self?.notePosition()
            return false
        }
    }

    /// Gives the window its printer's `actions` (`PrinterActions`: those placed in mini windows,
    /// the print controls and its cameras), so the app's shortcuts for them act on its printer here
    /// too, and its menu `menuFeatures`' items, which GTK finds here as well.
    func install(_ actions: PrinterActions, menu menuFeatures: [Feature]) {
        printerActions = actions
        gtk_widget_insert_action_group(window, "printer", gcast(actions.group.pointer))
        PrintFileDrop.install(on: window, over: surface) { [unowned self] in camera.name }
        let menu = FeatureMenu(menuFeatures)
        self.menu = menu
        gtk_menu_button_set_menu_model(gcast(menuButton), gcast(menu.model.pointer))
        gtk_menu_button_set_icon_name(gcast(menuButton), "view-more-symbolic")
        gtk_widget_add_css_class(menuButton, "circular")
        gtk_widget_add_css_class(menuButton, "osd")
        gtk_widget_set_tooltip_text(menuButton, tr("Printer Menu"))
        setAccessibleLabel(menuButton, tr("Printer Menu"))
        if let popover = gtk_menu_button_get_popover(gcast(menuButton)) {
            connectNotify(popover, "visible") { [weak self] in
                guard let self else { return }
                isMenuOpen = Bool(gboolean: gtk_widget_get_visible(gcast(popover)))
                // Its tooltip would show over the menu's first item: none while the menu is open.
                gtk_widget_set_has_tooltip(menuButton, (!isMenuOpen).gboolean)
                refreshActions()
            }
        }
        actions.onRefresh = { [weak self, unowned actions] in self?.showMenu(for: actions) }
        refreshActions()
    }

    /// Its menu, titled for its printer.
    private var menu: FeatureMenu?

    /// Whether its menu is open.
    private(set) var isMenuOpen = false

    /// Enables its actions where they apply to its printer (its cameras are its tab's, which may
    /// have opened or closed since), and its menu with them.
    private func refreshActions() {
        printerActions?.refresh()
    }

    /// Titles its menu for `printer`; the menu's button shows only while the menu has an item to
    /// show (a plain camera's, an idle printer's has none).
    private func showMenu(for printer: PrinterContext) {
        menu?.refresh(printer)
        gtk_widget_set_visible(menuButton, (isMenuOpen || menu?.showsAnItem(for: printer) == true).gboolean)
    }

    /// Shows another of the printer's cameras, `session` its session, in the same picture.
    func show(_ camera: Camera, session: StreamSession) {
        self.camera = camera
        surface.show(session, name: camera.name, orientation: camera.orientation)
        gtk_window_set_title(gcast(window), KeepAboveHint.title(of: camera.fullName))
    }

    /// Shows the printer's status from `hub`: the strip and the light switch.
    func followStatus(in hub: PrinterStatusHub) {
        status.follow(camera.printerID, in: hub, light: light, temperatures: surface.stats)
    }

    /// Shows the window and asks for it to stay on top; on Wayland the outcome says it could not.
    func present() {
        gtk_window_present(gcast(window))
        let source = surface.session.stats.sourceSize.map { (Int32($0.width), Int32($0.height)) } ?? (16, 9)
        let aspect = camera.orientation.isSideways ? (source.1, source.0) : source
        keepAbove = KeepAbove.apply(to: window, aspect: aspect)
        if let lastPosition { WindowPosition.move(window, to: lastPosition) }
    }

    func close() {
        notePosition()
        // An open menu holds the pointer grab: it goes first, or the grab outlives the window.
        gtk_menu_button_popdown(gcast(menuButton))
        gtk_window_destroy(gcast(window))
    }

    /// A message inside the mini window. libadwaita 1.2's toast title is one line, ellipsized: in a
    /// window this small the keep-above hint (Wayland) ended in "…" before saying what to do, so the
    /// title is a label of its own that wraps. The toast takes its title's natural width (clipped,
    /// not wrapped, past the window): at most 36 characters keeps it inside the 480 px default.
    func toast(_ text: String) {
        let toast = WindowChores.wrappingToast(text, width: 36)
        adw_toast_set_timeout(toast, 8)
        adw_toast_overlay_add_toast(gcast(toasts), toast)
    }

    /// The window's current size (for saving it).
    var size: (width: Int32, height: Int32) {
        WindowChores.size(of: window)
    }

    /// Where its top-left corner is on the screen, for saving it: read from the window on X11
    /// (where it was last, once closed); nil on Wayland.
    var position: (x: Int32, y: Int32)? {
        notePosition()
        return lastPosition
    }

    private func notePosition() {
        if let now = WindowPosition.read(window) { lastPosition = now }
    }

    private func returnToTab() {
        onReturnToTab()
        close()
    }

    private func addButton(_ icon: String, _ tooltip: String, _ action: @escaping @MainActor () -> Void) {
        let button = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(button, tooltip)
        setAccessibleLabel(button, tooltip)
        gtk_widget_add_css_class(button, "circular")
        gtk_widget_add_css_class(button, "osd")
        connectSignal(button, "clicked") { action() }
        gtk_box_append(gcast(controls), button)
    }

    private func showControlsOnHover(_ area: UnsafeMutablePointer<GtkWidget>) {
        let motion = gtk_event_controller_motion_new()!
        connectNotify(motion, "contains-pointer") { [controls] in
            let inside = Bool(gboolean: gtk_event_controller_motion_contains_pointer(gcast(motion)))
            gtk_widget_set_opacity(controls, inside ? 1 : 0)
        }
        gtk_widget_add_controller(area, motion)
    }
}
