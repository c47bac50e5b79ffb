import CGtk
import CameraKit
import Foundation
import GtkKit
import StatusKit
import StreamKit

/// One printer in the farm view: its live picture (a third camera surface on the printer's shared
/// session, beside its tab and mini window), its name, the print's state, progress and time left
/// (the status strip in its tile form), the picture's age for cameras that send a frame a second,
/// the heaters and filament on its second line (`StatusGlance`), and the chamber-light switch.
/// A failed or paused print frames the tile, a printer in trouble
/// (its status or camera failing) in another colour; a print ending within ten minutes is marked.
/// Click or Enter opens the printer's tab; the menu (its button, a
/// right-click, the Menu key or Shift+F10) holds the printer's other actions. A printer watched
/// without a picture has a `NoCameraArea` (its job's thumbnail, or its icon) in the picture's place.
/// An idle printer shows its last print from the journal (`LastPrintView`): a line below the
/// status, and its final picture over a picture slot with no live picture.
@MainActor
final class FarmTile: CameraSurfaceDelegate {
    /// The printer it shows, and its name.
    let printerID: UUID
    let name: String
    /// The camera shown (the one its tab shows); nil for a printer without a camera.
    let camera: Camera?
    /// The picture; nil for a printer without a camera.
    let surface: CameraSurface?
    /// What stands in the picture's place for a printer without a camera.
    let noCamera: NoCameraArea?
    /// The print's state, progress and time left, below the picture.
    let status = PrintStatusBinding(style: .tile)
    let light = ChamberLightToggle(classes: ["circular", "flat"])
    /// The last print, while the printer is idle.
    let lastPrint: LastPrintView
    /// The tile's root widget, the one the grid places and focus lands on.
    let widget: UnsafeMutablePointer<GtkWidget>
    private let finishing = makeLabel(tr("Finishing soon"), classes: ["finishing-badge"])
    private let menuButton = gtk_menu_button_new()!
    /// Every tile's picture is a 16:9 box, so the tiles of a row line up.
    private let pictureSlot: AspectSlot
    /// Where its status comes from, once it follows it.
    private weak var hub: PrinterStatusHub?

    /// The user chose the tile (click, Enter, Space): show the printer's tab.
    var onActivate: @MainActor () -> Void = {}
    /// The tile got the keyboard focus or its menu is opening: the printer becomes the selected one,
    /// which the window's actions act on.
    var onSelect: @MainActor () -> Void = {}
    /// The printer's status changed (the farm reorders).
    var onStatusChange: @MainActor () -> Void = {}
    /// The tile's menu closed, an action chosen or not (the farm holds its order a while).
    var onMenuClosed: @MainActor () -> Void = {}
    /// Ctrl+click, or a click in the farm's Select mode: the tile joins or leaves the printers a
    /// file is sent to.
    var onToggleChoice: @MainActor () -> Void = {}
    /// Whether the farm is in Select mode, where a click chooses rather than opens.
    var isSelecting: @MainActor () -> Bool = { false }
    /// Whether it is among the printers a file is sent to (`setChosen`).
    private(set) var isChosen = false
    private let check = gtk_image_new_from_icon_name("object-select-symbolic")!

    /// A tile for printer `printerID` called `name`, showing `camera` on `session` (the camera its
    /// tab shows), or its `NoCameraArea` when it has none.
    init(printerID: UUID, name printerName: String, camera: Camera?, session: StreamSession?, menu: OpaquePointer) {
        self.printerID = printerID
        name = printerName
        self.camera = camera
        let shown: UnsafeMutablePointer<GtkWidget>
        if let camera, let session {
            let surface = CameraSurface(session: session, name: camera.name, style: .tile, orientation: camera.orientation)
            self.surface = surface
            noCamera = nil
            shown = surface.widget
        } else {
            let area = NoCameraArea(style: .tile)
            surface = nil
            noCamera = area
            shown = area.widget
        }
        let lastPrint = LastPrintView(style: .tile)
        self.lastPrint = lastPrint
        let stage = gtk_overlay_new()!
        gtk_overlay_set_child(gcast(stage), shown)
        if let picture = lastPrint.picture { gtk_overlay_add_overlay(gcast(stage), picture) }
        pictureSlot = AspectSlot(stage, ratio: 16.0 / 9.0)
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_add_css_class(widget, "farm-tile")
        gtk_widget_set_focusable(widget, true.gboolean)
        setAccessibleLabel(widget, printerName)
        gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN)

        let title = makeLabel(printerName, classes: ["tile-name"], leading: true)
        gtk_label_set_ellipsize(gcast(title), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(title, true.gboolean)
        gtk_widget_set_tooltip_text(title, printerName)
        gtk_widget_set_visible(finishing, false.gboolean)
        gtk_widget_set_valign(finishing, GTK_ALIGN_CENTER)
        gtk_menu_button_set_icon_name(gcast(menuButton), "view-more-symbolic")
        gtk_menu_button_set_menu_model(gcast(menuButton), gcast(menu))
        gtk_widget_add_css_class(menuButton, "flat")
        gtk_widget_add_css_class(menuButton, "circular")
        gtk_widget_set_tooltip_text(menuButton, tr("Printer Menu"))
        setAccessibleLabel(menuButton, tr("Printer Menu"))
        let heading = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_visible(check, false.gboolean)
        gtk_widget_add_css_class(check, "chosen-check")
        gtk_widget_set_tooltip_text(check, tr("Selected"))
        for child in [check, title, finishing, light.button, menuButton] { gtk_box_append(gcast(heading), child) }
        let caption = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        gtk_widget_add_css_class(caption, "tile-caption")
        gtk_box_append(gcast(caption), heading)
        if let glance = status.glance { gtk_box_append(gcast(caption), glance.widget) }
        gtk_box_append(gcast(caption), status.strip.widget)
        gtk_box_append(gcast(caption), lastPrint.line)
        gtk_box_append(gcast(widget), pictureSlot.widget)
        gtk_box_append(gcast(widget), caption)

        if let popover = gtk_menu_button_get_popover(gcast(menuButton)) {
            connectSignal(popover, "show") { [weak self] in self?.onSelect() }
            connectSignal(popover, "hide") { [weak self] in self?.onMenuClosed() }
        }
        listenForActivation()
        surface?.delegate = self
        PrintFileDrop.install(on: widget, over: surface) { printerName }
    }

    /// Shows the printer's last print from `lastPrints` while it is idle.
    func followLastPrint(in lastPrints: LastPrints) {
        lastPrint.follow(printerID, in: lastPrints)
    }

    /// Shows the printer's status from `hub`: the strip, the frame, the mark, the light switch.
    func followStatus(in hub: PrinterStatusHub) {
        self.hub = hub
        status.follow(printerID, in: hub, light: light) { [weak self] in self?.statusChanged() }
        noCamera?.follow(printerID, in: hub)
    }

    /// A camera failing or coming back changes the tile's place as its status does.
    func cameraSurface(_ surface: CameraSurface, didChange state: SessionState) {
        statusChanged()
    }

    private func statusChanged() {
        guard let hub else { return }
        show(entry(in: hub))
        onStatusChange()
    }

    /// What the farm's order needs of this printer, from `hub`.
    func entry(in hub: PrinterStatusHub) -> FarmOrder.Entry {
        let update = hub.latest(printerID)
        let status = update?.connection == .live ? update?.status : nil
        let cameraFailing = switch surface?.state {
        case .failed?, .reconnecting?: true
        case .idle?, .connecting?, .live?, .stopped?, nil: false
        }
        return FarmOrder.Entry(id: printerID, state: status?.state, timeLeft: status?.timeLeft,
                               inTrouble: hub.failure(of: printerID) != nil || cameraFailing,
                               alerted: status.map { $0.printError != nil || $0.alerts.contains(where: \.isGrave) } ?? false)
    }

    /// Whether the tile shows what `page` shows now: its printer, by its name, on its session
    /// (none for a printer without a camera).
    func shows(_ page: PrinterPage) -> Bool {
        page.printerID == printerID && page.name == name && page.session === surface?.session
    }

    /// Gives the tile (its menu) its printer's `printer` actions.
    func act(with actions: PrinterActions?) {
        gtk_widget_insert_action_group(widget, "printer", actions.map { gcast($0.group.pointer) })
    }

    func dismantle() {
        surface?.dismantle()
        noCamera?.dismantle()
        lastPrint.dismantle()
    }

    var isMenuOpen: Bool {
        gtk_menu_button_get_popover(gcast(menuButton)).map { Bool(gboolean: gtk_widget_get_mapped(gcast($0))) } ?? false
    }

    var isFramed: Bool { Bool(gboolean: gtk_widget_has_css_class(widget, "attention")) }
    var isFramedAsTrouble: Bool { Bool(gboolean: gtk_widget_has_css_class(widget, "trouble")) }
    var isMarkedFinishing: Bool { Bool(gboolean: gtk_widget_get_visible(finishing)) }

    /// Opens the tile's menu (the Menu key, Shift+F10, a right-click).
    func openMenu() {
        onSelect()
        gtk_menu_button_popup(gcast(menuButton))
    }

    /// Marks it as chosen (a check before its name, an accent frame) or not.
    func setChosen(_ chosen: Bool) {
        isChosen = chosen
        gtk_widget_set_visible(check, chosen.gboolean)
        setClass("chosen", chosen)
    }

    private func show(_ entry: FarmOrder.Entry) {
        setClass("attention", FarmOrder.needsAttention(entry.state))
        setClass("failed", entry.state == .failed)
        setClass("trouble", FarmOrder.isInTrouble(entry))
        let soon = FarmOrder.isFinishing(entry)
        gtk_widget_set_visible(finishing, soon.gboolean)
        setClass("finishing", soon)
        lastPrint.update(state: entry.state, live: surface?.state == .live)
    }

    private func setClass(_ name: String, _ on: Bool) {
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }

    /// Click (primary button, released on the tile), Enter or Space activates; the secondary button
    /// and the menu keys open the menu; taking the focus selects.
    private func listenForActivation() {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gcast(click), 0)
        connectClickSignal(click, "released") { [weak self] _, _, _ in
            guard let self else { return }
            let button = gtk_gesture_single_get_current_button(gcast(click))
            gtk_widget_grab_focus(widget)
            let control = gtk_event_controller_get_current_event_state(gcast(click)).rawValue & GDK_CONTROL_MASK.rawValue != 0
            if button == UInt32(GDK_BUTTON_SECONDARY) {
                openMenu()
            } else if button == UInt32(GDK_BUTTON_PRIMARY) {
                if control || isSelecting() { onToggleChoice() } else { onActivate() }
            }
        }
        gtk_widget_add_controller(widget, gcast(click))

        let keys = gtk_event_controller_key_new()!
        connectKeySignal(keys) { [weak self] key, modifiers in
            guard let self else { return false }
            switch Int32(key) {
            case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space, GDK_KEY_KP_Space:
                onActivate()
                return true
            case GDK_KEY_Menu:
                openMenu()
                return true
            case GDK_KEY_F10 where modifiers & GDK_SHIFT_MASK.rawValue != 0:
                openMenu()
                return true
            default:
                return false
            }
        }
        gtk_widget_add_controller(widget, keys)

        let focus = gtk_event_controller_focus_new()!
        connectSignal(focus, "enter") { [weak self] in self?.onSelect() }
        gtk_widget_add_controller(widget, focus)
    }
}
