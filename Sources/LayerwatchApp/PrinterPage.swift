import CGtk
import Foundation
import GtkKit
import StreamKit

/// Everything one printer shows: the video (a CameraView in an overlay with the status card, LIVE
/// badge and stats), and the control bar, arranged by an AdaptiveLayout that moves only the bar
/// when the window turns wide or tall. The video widget is made once and never moves.
@MainActor
final class PrinterPage {
    let camera: Camera
    let session: StreamSession
    var name: String { camera.name }
    let status = StatusOverlay()
    let stats = StatsOverlay()
    let controls = ControlBar()
    let layout: AdaptiveLayout
    private let overlay: UnsafeMutablePointer<GtkWidget>
    private let liveBadge: UnsafeMutablePointer<GtkWidget>
    /// "2 s ago": how old the picture is, for cameras that send a frame every second or so
    /// (Bambu P1/A1) and for a stream that has stopped sending.
    private let frameAge: UnsafeMutablePointer<GtkWidget>
    private var cameraHost: RepresentableHost<ObjectIdentifier, CameraView>!
    private var displaySize = PixelSize.full
    private var ticker: RepeatingTimer?
    private(set) var state: SessionState = .idle
    /// Set while its tab is being closed for good.
    var isBeingRemoved = false
    /// Told of every state change (the tab's state indicator listens).
    var onStateChange: @MainActor (SessionState) -> Void = { _ in }

    /// The widget to put in a window or tab.
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }

    /// The GtkPicture showing the video (stable for the page's life).
    var picture: UnsafeMutablePointer<GtkWidget>? { cameraHost.widget }

    var isLiveBadgeShown: Bool { gtk_widget_get_visible(liveBadge) != 0 }

    /// The camera view's coordinator, for snapshots and tests.
    var cameraCoordinator: CameraCoordinator? { cameraHost?.coordinator }

    init(camera: Camera, session: StreamSession) {
        self.camera = camera
        self.session = session
        overlay = gtk_overlay_new()
        gtk_widget_add_css_class(overlay, "camera-area")
        liveBadge = gtk_label_new("LIVE")
        gtk_widget_add_css_class(liveBadge, "live-badge")
        gtk_widget_set_halign(liveBadge, GTK_ALIGN_START)
        gtk_widget_set_valign(liveBadge, GTK_ALIGN_START)
        gtk_widget_set_visible(liveBadge, 0)
        frameAge = gtk_label_new(nil)
        gtk_widget_add_css_class(frameAge, "frame-age")
        gtk_widget_set_halign(frameAge, GTK_ALIGN_START)
        gtk_widget_set_valign(frameAge, GTK_ALIGN_END)
        gtk_widget_set_visible(frameAge, 0)
        layout = AdaptiveLayout(primary: overlay, secondary: controls.widget)

        cameraHost = RepresentableHost(id: ObjectIdentifier(session), cameraView())
        gtk_overlay_set_child(gcast(overlay), cameraHost.widget)
        for child in [status.widget, liveBadge, frameAge, stats.widget] {
            gtk_overlay_add_overlay(gcast(overlay), child)
        }
        status.onRetry = { [weak self] in self?.reconnect() }
        layout.onArrangementChange = { [weak self] arrangement in
            self?.controls.setOrientation(arrangement == .beside ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL)
        }
        layout.onPrimaryAllocation = { [weak self] width, height in
            self?.primaryAllocated(width: width, height: height)
        }
        connectSignal(overlay, "map") { [weak self] in self?.startTicking() }
        connectSignal(overlay, "unmap") { [weak self] in self?.ticker = nil }
        apply(session.state)
    }

    /// Detaches the video from the session (the last view leaving stops the stream).
    func dismantle() {
        ticker = nil
        cameraHost.dismantle()
    }

    // MARK: Commands

    func reconnect() {
        session.restart()
    }

    /// Saves the current picture at the stream's full resolution as a PNG (see SnapshotWriter).
    func takeSnapshot(into folder: URL = SnapshotWriter.directory(),
                      completion: @escaping @MainActor (Result<URL, SnapshotWriter.Failure>) -> Void) {
        let printer = name
        session.captureFullResolution(executor: MainLoopExecutor.main) { frame in
            MainActor.assumeIsolated {
                guard let frame else { return completion(.failure(.noPicture)) }
                SnapshotWriter.save(frame, printer: printer, into: folder, completion: completion)
            }
        }
    }

    func setStatsShown(_ shown: Bool) {
        stats.setShown(shown)
        if shown { stats.show(session.stats) }
    }

    /// Hides the control bar (fullscreen shows only the video).
    func setControlsHidden(_ hidden: Bool) {
        gtk_widget_set_visible(controls.widget, hidden ? 0 : 1)
    }

    // MARK: State

    private func cameraView() -> CameraView {
        CameraView(session: session, displaySize: displaySize) { [weak self] state in self?.apply(state) }
    }

    private func apply(_ newState: SessionState) {
        state = newState
        onStateChange(newState)
        status.apply(newState, name: name)
        if newState == .live, let size = session.stats.sourceSize, size.width > 0, size.height > 0 {
            layout.contentAspectRatio = Double(size.width) / Double(size.height)
        }
        gtk_widget_set_visible(liveBadge, newState == .live ? 1 : 0)
        guard let picture else { return }
        let hasFrame = cameraCoordinator?.shownFrame != nil
        setClass(picture, "waiting", !hasFrame && newState != .live)
        setClass(picture, "stale", hasFrame && newState != .live)
    }

    private func primaryAllocated(width: Int32, height: Int32) {
        let scale = Int(gtk_widget_get_scale_factor(overlay))
        let size = PixelSize(width: Int(width) * scale, height: Int(height) * scale)
        guard size != displaySize else { return }
        displaySize = size
        cameraHost.update(cameraView())
    }

    private func startTicking() {
        ticker = RepeatingTimer(seconds: 1) { [weak self] in
            guard let self else { return }
            if state != .live { status.apply(state, name: name) }
            if stats.isShown { stats.show(session.stats) }
            showFrameAge()
        }
    }

    /// The age of the picture on screen, once it is at least a second old while live.
    private func showFrameAge(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        guard state == .live, let frame = cameraCoordinator?.shownFrame, now > frame.decodedAt else {
            gtk_widget_set_visible(frameAge, 0)
            return
        }
        let seconds = Int((now - frame.decodedAt) / 1_000_000_000)
        gtk_widget_set_visible(frameAge, seconds >= 1 ? 1 : 0)
        gtk_label_set_text(gcast(frameAge), "\(seconds) s ago")
    }

    /// The frame-age text while it is shown (for tests).
    var frameAgeText: String? {
        gtk_widget_get_visible(frameAge) != 0 ? String(cString: gtk_label_get_text(gcast(frameAge))) : nil
    }

    private func setClass(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String, _ on: Bool) {
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }
}
