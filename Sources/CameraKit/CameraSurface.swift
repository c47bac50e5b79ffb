import CGtk
import Foundation
import GtkKit
import StreamKit

/// What a CameraSurface tells the view that owns it.
@MainActor
public protocol CameraSurfaceDelegate: AnyObject {
    /// The session's state changed; the surface's own overlays already show it.
    func cameraSurface(_ surface: CameraSurface, didChange state: SessionState)
}

/// Everything that shows one view of a camera, whatever window it sits in (a printer's tab, a mini
/// window, a farm tile): the picture (a `CameraView` driven by its `RepresentableHost`), the
/// overlays over it (connection card, LIVE badge, recording badge, picture age, stats, the zoom
/// indicator), zoom and pan (not in a farm tile), orientation, the display-size hint taken from
/// its own allocation and scale factor, and retry. It knows nothing of the print: the owner puts
/// its `PrintStatusBinding`'s strip over it (`addBottomOverlay`) or beside it. The owner embeds
/// `widget`, and hears of states through `delegate`; the picture is made once and never moves
/// inside the surface.
@MainActor
public final class CameraSurface {
    /// What a surface shows besides the picture and the status card.
    public enum Style {
        /// A printer's page: LIVE badge, picture age, stats; the full status strip at the bottom.
        case full
        /// A mini window: a compact status card; a one-line status strip.
        case compact
        /// A farm tile: a compact status card and the picture's age over the picture; the owner
        /// places the strip below it, where it covers nothing.
        case tile
    }

    /// The camera's session shown now (see `show(_:name:orientation:)`).
    public private(set) var session: StreamSession
    let status = StatusOverlay()
    /// The stream's figures, and the printer's temperatures its owner's status binding gives.
    public let stats = StatsOverlay()
    public weak var delegate: CameraSurfaceDelegate?
    public private(set) var state: SessionState = .idle

    /// The widget to embed: the overlay holding the picture and its overlays.
    public var widget: UnsafeMutablePointer<GtkWidget> { overlay.pointer }
    /// The GtkPicture showing the video; stable until `dismantle`.
    var picture: UnsafeMutablePointer<GtkWidget>? { cameraHost.widget }
    /// The frame on screen now.
    public var shownFrame: VideoFrame? { cameraHost.coordinator?.shownFrame }
    /// How frames reach this surface's renderer.
    var framePath: FramePath? { cameraHost.coordinator?.path }
    /// How often the picture's wrapper was updated and dismantled (it is made once, with the surface).
    var lifecycle: (updates: Int, dismantles: Int) { (cameraHost.updateCount, cameraHost.dismantleCount) }

    /// Set where the printer's settings can be edited: a rejected access code then offers that.
    public var onEditAccessCode: (@MainActor () -> Void)? {
        get { status.onEdit }
        set { status.onEdit = newValue }
    }

    private var name: String
    /// How the camera is mounted (the picture is drawn upright).
    private var orientation: PictureOrientation
    private let overlay = GObjectRef(adopting: gtk_overlay_new()!)
    private let allocation = AllocationWatch()
    private let liveBadge = GObjectRef(adopting: makeLabel(tr("LIVE"), classes: ["live-badge"]))
    /// "2 s ago": how old the picture is, for cameras that send a frame every second or so
    /// (Bambu P1/A1) and for a stream that has stopped sending.
    private let frameAge = GObjectRef(adopting: makeLabel(classes: ["frame-age"]))
    /// The red dot while the camera is being recorded.
    private let recordingBadge = RecordingBadge()
    /// The picture's host: one picture for the surface's life, whichever camera it shows.
    private let cameraHost: RepresentableHost<UUID, CameraView>
    private var displaySize = PixelSize.full
    /// False while the owner has scrolled the surface out of sight (see `setOnScreen`).
    private var onScreen = true
    /// A picture at each keyframe is enough (see `setKeyframesSuffice`).
    private var keyframesSuffice = false
    private var ticker: RepeatingTimer?
    /// Zoom and pan, and the indicator showing them; nil in a farm tile.
    private var zoomControls: ZoomControls?
    private var zoomIndicator: ZoomIndicator?
    /// Where the owner's bottom overlays go: below the picture's age and the zoom (a page's), or
    /// over the picture (a mini window's).
    private var bottom: UnsafeMutablePointer<GtkWidget>?

    /// A surface for `session`, captioned with the printer's `name`, showing the picture upright for
    /// a camera mounted as `orientation` says.
    public init(session: StreamSession, name: String, style: Style, orientation: PictureOrientation = .upright) {
        self.session = session
        self.name = name
        self.orientation = orientation
        cameraHost = RepresentableHost(id: UUID(),
                                       CameraView(session: session, displaySize: .full, look: .waiting, onScreen: true,
                                                  keyframesSuffice: false, orientation: orientation, onState: { _ in }))
        gtk_widget_add_css_class(widget, "camera-area")
        gtk_overlay_set_child(gcast(widget), cameraHost.widget)
        gtk_overlay_add_overlay(gcast(widget), allocation.widget)
        gtk_overlay_add_overlay(gcast(widget), status.widget)
        // The top-left corner: badges side by side.
        let corner = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_add_css_class(corner, "corner-badges")
        gtk_widget_set_halign(corner, GTK_ALIGN_START)
        gtk_widget_set_valign(corner, GTK_ALIGN_START)
        gtk_overlay_add_overlay(gcast(widget), corner)
        switch style {
        case .full:
            gtk_widget_set_visible(liveBadge.pointer, false.gboolean)
            gtk_box_append(gcast(corner), liveBadge.pointer)
            gtk_box_append(gcast(corner), recordingBadge.widget)
            // The picture's age and the zoom sit just above the strip, so none covers another.
            let bottom = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_widget_set_valign(bottom, GTK_ALIGN_END)
            let above = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
            gtk_widget_set_halign(frameAge.pointer, GTK_ALIGN_START)
            gtk_widget_set_valign(frameAge.pointer, GTK_ALIGN_END)
            gtk_widget_set_hexpand(frameAge.pointer, true.gboolean)
            gtk_widget_set_visible(frameAge.pointer, false.gboolean)
            let indicator = makeZoomable().widget
            gtk_widget_set_halign(indicator, GTK_ALIGN_END)
            gtk_widget_set_hexpand(indicator, true.gboolean)
            gtk_box_append(gcast(above), frameAge.pointer)
            gtk_box_append(gcast(above), indicator)
            gtk_box_append(gcast(bottom), above)
            gtk_overlay_add_overlay(gcast(widget), bottom)
            gtk_overlay_add_overlay(gcast(widget), stats.widget)
            self.bottom = bottom
        case .compact:
            gtk_widget_add_css_class(status.widget, "compact")
            gtk_box_append(gcast(corner), recordingBadge.widget)
            gtk_box_append(gcast(corner), makeZoomable().widget)
        case .tile:
            gtk_widget_add_css_class(status.widget, "compact")
            gtk_widget_set_visible(frameAge.pointer, false.gboolean)
            gtk_box_append(gcast(corner), frameAge.pointer)
            gtk_box_append(gcast(corner), recordingBadge.widget)
        }
        status.onRetry = { [weak self] in self?.reconnect() }
        allocation.onChange = { [weak self] width, height in
            self?.displaySizeChanged(PixelSize(width: width, height: height))
        }
        // What the ticks show is shown at once too: a view appearing (a tab switched to, the farm,
        // a mini window) never shows a recording's time as it was when it went, or no badge, for a second.
        connectSignal(widget, "map") { [weak self] in
            self?.showRecording()
            self?.startTicking()
        }
        connectSignal(widget, "unmap") { [weak self] in self?.ticker = nil }
        cameraHost.update(cameraView())
        apply(session.state)
    }

    /// Shows another camera's `session` in the same picture (a printer's camera switcher): the
    /// picture, its overlays and zoom stay; the picture waits for that camera's frames.
    public func show(_ session: StreamSession, name: String, orientation: PictureOrientation) {
        guard session !== self.session else { return }
        self.session = session
        self.name = name
        self.orientation = orientation
        zoomControls?.set(.fitted)
        apply(session.state)
        if stats.isShown { stats.show(session.stats) }
        showRecording()
    }

    /// Takes the picture out and detaches it from the session (the last view leaving stops the
    /// stream). Only the first call does anything.
    public func dismantle() {
        guard !cameraHost.isDismantled else { return }
        ticker = nil
        gtk_overlay_set_child(gcast(widget), nil)
        cameraHost.dismantle()
    }

    /// Dismantles when `owner` (the window the surface lives in) is destroyed.
    public func dismantleOnDestroy(of owner: some GObjectPointer) {
        connectSignal(owner, "destroy") { [weak self] in self?.dismantle() }
    }

    /// Lays the owner's own controls over the picture (the mini window's hover buttons).
    public func addOverlay(_ control: UnsafeMutablePointer<GtkWidget>) {
        gtk_overlay_add_overlay(gcast(widget), control)
    }

    /// Connects again at once (the status card's Retry, the Reconnect action).
    public func reconnect() {
        session.restart()
    }

    /// Lays the owner's `control` (its print status strip) along the bottom: below the picture's
    /// age and the zoom on a page, over the picture's bottom edge in a mini window.
    public func addBottomOverlay(_ control: UnsafeMutablePointer<GtkWidget>) {
        if let bottom { gtk_box_append(gcast(bottom), control) } else { gtk_overlay_add_overlay(gcast(widget), control) }
    }

    /// Lays `control` (a page's toasts) along the bottom above the picture's age, the zoom and the
    /// status strip, so it covers none of them (over the bottom edge where there is no such row).
    public func addAboveBottomOverlays(_ control: UnsafeMutablePointer<GtkWidget>) {
        if let bottom { gtk_box_prepend(gcast(bottom), control) } else { gtk_overlay_add_overlay(gcast(widget), control) }
    }

    /// Whether the picture can be seen: a farm tile scrolled out of the window is mapped but
    /// hidden, and then costs what a hidden tab costs (the session converts nothing for it).
    public func setOnScreen(_ shown: Bool) {
        guard shown != onScreen else { return }
        onScreen = shown
        cameraHost.update(cameraView())
    }

    var isOnScreen: Bool { onScreen }

    /// Whether a new picture at each keyframe is enough here (a farm tile past the live ones): while
    /// no other view of the session is shown, it then decodes keyframes only (see `HiddenDecoding`).
    public func setKeyframesSuffice(_ suffice: Bool) {
        guard suffice != keyframesSuffice else { return }
        keyframesSuffice = suffice
        cameraHost.update(cameraView())
    }

    var keyframesAreEnough: Bool { keyframesSuffice }

    // MARK: Zoom

    /// How far the picture is zoomed in, and where (always fitted in a farm tile).
    var zoom: PictureZoom { zoomControls?.zoom ?? .fitted }

    /// Zooms to `zoom` (a farm tile stays fitted).
    public func setZoom(_ zoom: PictureZoom) {
        zoomControls?.set(zoom)
    }

    /// One step in or out about the middle (the `+` and `-` keys).
    public func stepZoom(in zoomIn: Bool) {
        zoomControls?.step(in: zoomIn)
    }

    /// The zoom indicator's text while it is shown ("2×").
    var zoomIndicatorText: String? { zoomIndicator?.text }

    /// Where (`x`, `y`) of the surface falls on the picture, in fractions of its sides.
    func picturePoint(x: Double, y: Double) -> (x: Double, y: Double)? {
        zoomControls?.viewPoint(x: x, y: y)
    }

    /// The picture's width over its height as drawn (upright), 16:9 before the stream's is known.
    private var pictureAspectRatio: Double {
        cameraHost.coordinator.map { gdk_paintable_get_intrinsic_aspect_ratio($0.paintable.pointer) } ?? 16.0 / 9
    }

    /// Adds zoom and pan over the picture; returns the indicator for the style to place.
    private func makeZoomable() -> ZoomIndicator {
        let controls = ZoomControls(on: widget) { [weak self] in self?.pictureAspectRatio ?? 16.0 / 9 }
        let indicator = ZoomIndicator { [weak controls] in controls?.set(.fitted) }
        controls.onChange = { [weak self] zoom in
            guard let self else { return }
            zoomIndicator?.show(zoom, aspectRatio: pictureAspectRatio)
            cameraHost.update(cameraView())
        }
        zoomControls = controls
        zoomIndicator = indicator
        return indicator
    }

    public func setStatsShown(_ shown: Bool) {
        stats.setShown(shown)
        if shown { stats.show(session.stats) }
    }

    var isLiveBadgeShown: Bool { Bool(gboolean: gtk_widget_get_visible(liveBadge.pointer)) }

    /// The badge's words while the picture plays ("LIVE", or "DEMO").
    var liveBadgeText: String { String(cString: gtk_label_get_text(gcast(liveBadge.pointer))) }

    /// Says "DEMO" where a camera says "LIVE": the demo clip is a recording, never a live picture.
    public func markAsDemo() {
        gtk_label_set_text(gcast(liveBadge.pointer), tr("DEMO"))
        gtk_widget_remove_css_class(liveBadge.pointer, "live-badge")
        gtk_widget_add_css_class(liveBadge.pointer, "demo-badge")
    }

    /// The picture-age text while it is shown.
    var frameAgeText: String? {
        Bool(gboolean: gtk_widget_get_visible(frameAge.pointer)) ? String(cString: gtk_label_get_text(gcast(frameAge.pointer))) : nil
    }

    // MARK: State

    private func cameraView() -> CameraView {
        let look: CameraView.Look = state == .live ? .live : (shownFrame == nil ? .waiting : .stale)
        return CameraView(session: session, displaySize: displaySize, look: look, onScreen: onScreen,
                          keyframesSuffice: keyframesSuffice, orientation: orientation, zoom: zoom) { [weak self] state in
            self?.apply(state)
        }
    }

    private func apply(_ newState: SessionState) {
        state = newState
        status.apply(newState, name: name, terms: session.terms)
        gtk_widget_set_visible(liveBadge.pointer, (newState == .live).gboolean)
        cameraHost.update(cameraView())
        delegate?.cameraSurface(self, didChange: newState)
    }

    /// Called from inside the size-allocate pass: only tells the session, never resizes a widget.
    private func displaySizeChanged(_ size: PixelSize) {
        guard size != displaySize else { return }
        displaySize = size
        cameraHost.update(cameraView())
    }

    private func startTicking() {
        ticker = RepeatingTimer(seconds: 1) { [weak self] in
            guard let self else { return }
            if state != .live { status.apply(state, name: name, terms: session.terms) }
            if stats.isShown { stats.show(session.stats) }
            showFrameAge()
            showRecording()
        }
    }

    /// Shows whether the camera is being recorded, how long and how large (each second, and at once
    /// when a recording starts or ends).
    public func showRecording() {
        recordingBadge.show(session.recording?.current)
    }

    /// The recording badge's text while it is shown.
    var recordingBadgeText: String? { recordingBadge.text }

    /// The age of the picture on screen, once it is at least a second old while live.
    private func showFrameAge(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        guard state == .live, let frame = shownFrame, now > frame.decodedAt else {
            gtk_widget_set_visible(frameAge.pointer, false.gboolean)
            return
        }
        let seconds = Int((now - frame.decodedAt) / 1_000_000_000)
        gtk_widget_set_visible(frameAge.pointer, (seconds >= 1).gboolean)
        gtk_label_set_text(gcast(frameAge.pointer), String(format: tr("%d s ago"), seconds))
    }
}
