import CGtk
import CLayerwatch
import Foundation
import GtkKit
import StreamKit

/// The farm view: every open printer at once, as tiles in a grid that reflows with the window
/// (one column in a narrow window, up to six in a wide one; tiles that all fit the window grow to
/// fill it, so four printers in a maximised window are two rows of two), in the printers' own order or with
/// those needing attention first. Each tile shows its printer's shared session (never a second
/// connection); reordering and reflowing only move tiles, and a tile scrolled out of the window
/// tells its session it is not seen, so it costs what a hidden tab costs. The first `liveTiles`
/// tiles in sight play every frame; those after them (with attention first, the printers that
/// need nobody) show a new picture at each keyframe. Arrow keys move between tiles, Home and End
/// go to the first and last. The tiles hold still while someone acts on them (`FarmHold`).
@MainActor
final class FarmView {
    /// The widget to embed: the grid, or a page saying there is nothing to show.
    let widget: UnsafeMutablePointer<GtkWidget>
    let grid = TileGrid(minimumTileWidth: 320, maximumColumns: 6, spacing: 12)
    /// How many tiles in sight play every frame. Decoding, not conversion or drawing, is what many
    /// tiles cost, so past eight the tiles decode keyframes only rather than draw fewer of the
    /// frames that must be decoded anyway (measured: bench/FARM.md).
    static let liveTiles = 8
    /// Where the idle printers' tiles find their last prints (the journal's); set before the tiles are made.
    var lastPrints: LastPrints?
    /// The tiles, in the printers' own order.
    private(set) var tiles: [FarmTile] = []
    /// Tiles needing attention first (failed and paused, then the print ending soonest, …).
    var attentionFirst = true {
        didSet { if attentionFirst != oldValue { reorder(now: true) } }
    }

    /// The printers chosen to send a file to (Ctrl+click, or a click in Select mode), in the
    /// printers' own order.
    var chosen: [UUID] { tiles.filter(\.isChosen).map(\.printerID) }
    /// Select mode: a click on a tile chooses it rather than open its tab (for touch and mouse).
    var isSelecting = false {
        didSet { if isSelecting != oldValue { onChoiceChange() } }
    }
    /// The chosen printers or Select mode changed.
    var onChoiceChange: @MainActor () -> Void = {}

    /// The user chose a tile: show the printer's tab.
    var onActivate: @MainActor (UUID) -> Void = { _ in }
    /// A tile took the focus or opened its menu: that printer becomes the selected one.
    var onSelect: @MainActor (UUID) -> Void = { _ in }

    private let scroller: UnsafeMutablePointer<GtkWidget>
    /// The scrolled window's view of the grid.
    private let viewport: UnsafeMutablePointer<GtkWidget>
    /// The tiles' menu, titled for the selected printer; each tile's items act on its own printer
    /// (its page's `PrinterActions`).
    let menu = FeatureMenu(Feature.placed(\.tileMenuItem).map(\.feature))
    private weak var hub: PrinterStatusHub?
    private lazy var visibilityIdle = CoalescingIdle { [weak self] in self?.updateOnScreen() }
    /// Around the grid, inside the scrolled window.
    private static let margin: Int32 = 12
    /// Tells the grid the height it is seen in, less its margins (from an idle: the scrolled
    /// window's page size changes inside the size-allocate pass, where no resize may be queued).
    private lazy var fitIdle = CoalescingIdle { [weak self] in
        guard let self else { return }
        grid.fitHeight = max(0, Int32(gtk_adjustment_get_page_size(gtk_scrolled_window_get_vadjustment(gcast(scroller)))) - 2 * Self.margin)
    }
    /// Keeps the order while a tile's menu or dialog is open or the pointer was just at work.
    private let hold = FarmHold()

    init(hub: PrinterStatusHub) {
        self.hub = hub
        scroller = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(gcast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        // The view follows the keyboard: a tile the arrows reach scrolls into sight.
        viewport = gtk_viewport_new(nil, nil)!
        gtk_viewport_set_scroll_to_focus(gcast(viewport), true.gboolean)
        gtk_viewport_set_child(gcast(viewport), grid.widget)
        gtk_scrolled_window_set_child(gcast(scroller), viewport)
        for setMargin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            setMargin(grid.widget, Self.margin)
        }
        gtk_widget_set_valign(grid.widget, GTK_ALIGN_START)
        let empty = adw_status_page_new()!
        adw_status_page_set_icon_name(gcast(empty), "view-grid-symbolic")
        adw_status_page_set_title(gcast(empty), tr("No Printers"))
        adw_status_page_set_description(gcast(empty), tr("Add a printer to watch it here."))
        let add = gtk_button_new_with_label(Feature.addPrinter.title)!
        gtk_actionable_set_action_name(gcast(add), Feature.addPrinter.actionName)
        gtk_widget_set_halign(add, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(add, "pill")
        gtk_widget_add_css_class(add, "suggested-action")
        adw_status_page_set_child(gcast(empty), add)
        widget = gtk_stack_new()
        gtk_stack_add_named(gcast(widget), scroller, "grid")
        gtk_stack_add_named(gcast(widget), empty, "empty")
        gtk_widget_set_vexpand(widget, true.gboolean)

        grid.onAllocate = { [weak self] in
            self?.visibilityIdle.schedule()
            self?.followFocusedTile()
        }
        let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scroller))!
        connectSignal(adjustment, "value-changed") { [weak self] in self?.visibilityIdle.schedule() }
        connectSignal(adjustment, "changed") { [weak self] in self?.fitIdle.schedule() }
        let keys = gtk_event_controller_key_new()!
        connectKeySignal(keys) { [weak self] key, _ in
            guard let self else { return false }
            hold.noteActivity()
            // Escape leaves Select mode and clears the chosen printers.
            if Int32(key) == GDK_KEY_Escape, isSelecting || !chosen.isEmpty {
                clearChoice()
                return true
            }
            return moveFocus(key)
        }
        gtk_widget_add_controller(grid.widget, keys)
        holdWhileActing()
        showEmptyPage()
    }

    /// Makes the tiles match `pages` (the tabs, in their order): a tile for each new printer, a new
    /// tile for a printer whose session was replaced (edited) or that was renamed, none for printers gone.
    func sync(_ pages: [PrinterPage]) {
        for tile in tiles where !pages.contains(where: tile.shows) {
            grid.remove(tile.widget)
            tile.dismantle()
        }
        tiles = pages.map { page in
            let tile = tiles.first { $0.shows(page) } ?? makeTile(for: page)
            tile.act(with: page.printerActions)  // a page made again (its printer edited) brings its own
            return tile
        }
        showEmptyPage()
        reorder()
    }

    /// Unchooses every printer and leaves Select mode.
    func clearChoice() {
        tiles.forEach { $0.setChosen(false) }
        isSelecting = false
        onChoiceChange()
    }

    /// Dismantles every tile (the window is going away); their views leave the sessions.
    func dismantleAll() {
        isDismantled = true
        hold.cancel()
        tiles.forEach { $0.dismantle() }
    }

    /// Set once its window is gone: a visibility check still queued has nothing to look at.
    private var isDismantled = false

    func tile(id: UUID) -> FarmTile? {
        tiles.first { $0.printerID == id }
    }

    /// The tiles in the order they are shown.
    var shownOrder: [FarmTile] {
        grid.tiles.compactMap { widget in tiles.first { $0.widget == widget } }
    }

    /// Gives `id`'s tile the keyboard focus (and so the selection).
    func focus(_ id: UUID) {
        if let tile = tile(id: id) { gtk_widget_grab_focus(tile.widget) }
    }

    /// The tile holding the keyboard focus, if any.
    var focusedTile: FarmTile? {
        guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return nil }
        return tiles.first { focus == $0.widget || Bool(gboolean: gtk_widget_is_ancestor(focus, $0.widget)) }
    }

    private func makeTile(for page: PrinterPage) -> FarmTile {
        let tile = FarmTile(printerID: page.printerID, name: page.name, camera: page.camera, session: page.session, menu: menu.model.pointer)
        let id = page.printerID
        tile.onActivate = { [weak self] in self?.onActivate(id) }
        tile.onSelect = { [weak self] in self?.onSelect(id) }
        tile.onToggleChoice = { [weak self, unowned tile] in
            tile.setChosen(!tile.isChosen)
            self?.onChoiceChange()
        }
        tile.isSelecting = { [weak self] in self?.isSelecting ?? false }
        grid.append(tile.widget)
        if let lastPrints { tile.followLastPrint(in: lastPrints) }
        if let hub { tile.followStatus(in: hub) }
        // Set after the first status, which comes at once: `sync` orders the new tiles itself.
        tile.onStatusChange = { [weak self] in self?.reorder() }
        tile.onMenuClosed = { [weak self] in self?.hold.noteActivity() }
        return tile
    }

    /// Puts the tiles in the chosen order; a tile only moves, its stream never restarts. Unless
    /// `now` (the user chose the order), it waits while the hold lasts.
    private func reorder(now: Bool = false) {
        guard let hub, !isDismantled, now || hold.mayMove() else { return }
        let ordered = attentionFirst
            ? FarmOrder.attentionFirst(tiles.map { $0.entry(in: hub) }).compactMap { id in tiles.first { $0.printerID == id } }
            : tiles
        grid.setOrder(ordered.map(\.widget))
        visibilityIdle.schedule()
    }

    /// Pointer motion and clicks in the grid (seen before the tiles see them) hold the order a
    /// while; an open tile menu or a dialog over the window holds it until it closes.
    private func holdWhileActing() {
        let motion = gtk_event_controller_motion_new()!
        connectPointSignal(motion, "motion") { [weak self] _, _ in self?.hold.noteActivity() }
        gtk_widget_add_controller(grid.widget, motion)
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gcast(click), 0)
        gtk_event_controller_set_propagation_phase(gcast(click), GTK_PHASE_CAPTURE)
        connectClickSignal(click, "pressed") { [weak self] _, _, _ in self?.hold.noteActivity() }
        gtk_widget_add_controller(grid.widget, gcast(click))
        hold.isBusy = { [weak self] in
            guard let self else { return false }
            return tiles.contains(where: \.isMenuOpen) || isDialogOpen
        }
        hold.onRelease = { [weak self] in self?.reorder() }
    }

    /// Whether a modal window (a question a tile's action asked, an editor) is open over the farm's.
    private var isDialogOpen: Bool {
        guard let root = gtk_widget_get_root(widget) else { return false }
        let toplevels = gtk_window_get_toplevels()!
        return (0..<g_list_model_get_n_items(toplevels)).contains { index in
            guard let item = g_list_model_get_item(toplevels, index) else { return false }
            let window = GObjectRef(adopting: item.assumingMemoryBound(to: GtkWindow.self))
            let other = window.pointer
            return gtk_window_get_transient_for(other).map { UnsafeMutableRawPointer($0) == UnsafeMutableRawPointer(root) } ?? false
                && Bool(gboolean: gtk_window_get_modal(other)) && Bool(gboolean: gtk_widget_get_visible(gcast(other)))
        }
    }

    private func showEmptyPage() {
        gtk_stack_set_visible_child_name(gcast(widget), tiles.isEmpty ? "empty" : "grid")
    }

    /// Arrow keys move the focus one tile along the grid, or one row up or down; Home and End go
    /// to the ends. Keys elsewhere, or with no tile focused, go on to GTK.
    private func moveFocus(_ key: guint) -> Bool {
        let shown = shownOrder
        guard let focused = focusedTile, let index = shown.firstIndex(where: { $0 === focused }) else { return false }
        let columns = grid.columns
        let target: Int
        switch Int32(key) {
        case GDK_KEY_Left, GDK_KEY_KP_Left: target = index - 1
        case GDK_KEY_Right, GDK_KEY_KP_Right: target = index + 1
        case GDK_KEY_Up, GDK_KEY_KP_Up: target = index - columns
        case GDK_KEY_Down, GDK_KEY_KP_Down:
            // From a row with a shorter row below, Down lands on that row's last tile.
            let lastRow = (shown.count - 1) / columns
            target = index / columns < lastRow ? min(index + columns, shown.count - 1) : index
        case GDK_KEY_Home, GDK_KEY_KP_Home: target = 0
        case GDK_KEY_End, GDK_KEY_KP_End: target = shown.count - 1
        default: return false
        }
        if shown.indices.contains(target) { gtk_widget_grab_focus(shown[target].widget) }
        return true
    }

    /// Where the last layout put the focused tile in the grid (scrolling does not change it).
    private var focusedPlace: (tile: UnsafeMutablePointer<GtkWidget>, frame: TileGrid.Frame)?

    /// After each layout (from inside the size-allocate pass): when it moved the focused tile — a
    /// reorder, a new tile shape, a tile added or gone above it — the view follows it in the next
    /// frame, once that layout has decided its place. The viewport's scroll-to-focus only follows
    /// the focus going to another widget, never a focused widget that moves.
    private func followFocusedTile() {
        guard let tile = focusedTile, let index = grid.tiles.firstIndex(of: tile.widget), grid.frames.indices.contains(index) else {
            focusedPlace = nil
            return
        }
        let frame = grid.frames[index]
        defer { focusedPlace = (tile.widget, frame) }
        guard let before = focusedPlace, before.tile == tile.widget, before.frame != frame else { return }
        onNextFrame(of: viewport) { [weak self, weak tile] in
            guard let self, let tile, !isDismantled, focusedTile === tile else { return }
            reveal(tile)
        }
    }

    /// Scrolls the least that shows all of `tile` with the grid's margin around it (its top, when
    /// it is taller than the view).
    private func reveal(_ tile: FarmTile) {
        var bounds = graphene_rect_t()
        guard let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scroller)),
              Bool(gboolean: gtk_widget_compute_bounds(tile.widget, viewport, &bounds)) else { return }
        let top = gtk_adjustment_get_value(adjustment) + Double(bounds.origin.y)
        gtk_adjustment_clamp_page(adjustment, top - Double(Self.margin), top + Double(bounds.size.height) + Double(Self.margin))
    }

    /// Tells each tile whether any of it is inside the scrolled window's view, and whether it is
    /// among the first `liveTiles` in sight, which play every frame.
    private func updateOnScreen() {
        guard !isDismantled else { return }
        let height = Float(gtk_widget_get_height(scroller))
        var live = 0
        for tile in shownOrder {
            var bounds = graphene_rect_t()
            let known = Bool(gboolean: gtk_widget_compute_bounds(tile.widget, scroller, &bounds))
            let seen = !known || (bounds.origin.y < height && bounds.origin.y + bounds.size.height > 0)
            tile.surface?.setOnScreen(seen)
            if seen { live += 1 }
            tile.surface?.setKeyframesSuffice(seen && live > Self.liveTiles)
        }
    }
}
