import CGtk
import Foundation
import GtkKit
import StreamKit

/// Everything one printer's tab shows: its camera surface (the video, its overlays and the print's
/// status) and the control bar (with the camera switcher of a printer with several cameras and the
/// chamber-light switch of a Bambu printer), arranged by an AdaptiveLayout that moves only the bar
/// when the window turns wide or tall. The surface is made once and never moves; switching cameras
/// shows the other camera's session in it, each camera keeping its one connection meanwhile.
@MainActor
final class PrinterPage: CameraSurfaceDelegate {
    /// The printer's cameras in its order (a command-line or demo tab has one).
    let cameras: [Camera]
    /// Their sessions, in the same order.
    let sessions: [StreamSession]
    /// Which camera the tab shows.
    private(set) var shownIndex = 0
    /// The camera shown.
    var camera: Camera { cameras[shownIndex] }
    /// The shown camera's session.
    var session: StreamSession { sessions[shownIndex] }
    var printerID: UUID { cameras[0].printerID }
    var name: String { camera.name }
    let surface: CameraSurface
    /// The toasts' place: over the picture, above its status strip, so they never cover the
    /// control bar (nor the strip).
    let toasts: UnsafeMutablePointer<GtkWidget>
    /// The printer's status over the surface's bottom edge, whichever camera it shows.
    let status = PrintStatusBinding(style: .full)
    let controls = ControlBar()
    /// The camera switcher, in the control bar while the printer has more than one camera.
    let switcher: UnsafeMutablePointer<GtkWidget>
    /// Hidden views of the cameras not shown, so each keeps its connection and shows at once.
    private var standby: [Int: StreamConsumer] = [:]
    let light = ChamberLightToggle(classes: ["circular", "flat"])
    let layout: AdaptiveLayout
    /// Told of every state change (the tab's state indicator listens).
    var onStateChange: @MainActor (SessionState) -> Void = { _ in }
    /// Told of every change of the printer's status (the tab's progress listens).
    var onStatusChange: @MainActor () -> Void = {}
    /// Told when a recording of the camera starts or ends (the window's Record toggle listens).
    var onRecordingChange: @MainActor () -> Void = {}
    /// Says something to the user about this camera (a toast in its window), with the file it saved.
    var onMessage: @MainActor @Sendable (String, URL?) -> Void = { _, _ in }

    /// The widget to put in a window or tab.
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    var state: SessionState { surface.state }
    /// The printer's status as the strip shows it; nil without one.
    var printSummary: PrintSummary? { status.summary }

    /// A page for `cameras` (one printer's, at least one), each camera's session from `session`.
    init(cameras: [Camera], session: (Camera) -> StreamSession) {
        self.cameras = cameras
        sessions = cameras.map(session)
        surface = CameraSurface(session: sessions[0], name: cameras[0].name, style: .full, orientation: cameras[0].orientation)
        if cameras[0].isDemo { surface.markAsDemo() }
        surface.addBottomOverlay(status.strip.widget)
        // An overlay without a child is as large as its toast: nothing while none shows.
        toasts = adw_toast_overlay_new()
        gtk_widget_set_halign(toasts, GTK_ALIGN_CENTER)
        surface.addAboveBottomOverlays(toasts)
        layout = AdaptiveLayout(primary: surface.widget, secondary: controls.widget)
        switcher = makeDropDown(cameras.map(\.title))
        gtk_widget_set_tooltip_text(switcher, tr("Camera"))
        setAccessibleLabel(switcher, tr("Camera"))
        gtk_widget_set_visible(switcher, (cameras.count > 1).gboolean)
        surface.delegate = self
        controls.append(switcher)
        controls.append(light.button)
        for index in sessions.indices.dropFirst() { standby[index] = sessions[index].keepConnected() }
        connectSignal(switcher, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            showCamera(at: Int(gtk_drop_down_get_selected(gcast(switcher))))
        }
        layout.onArrangementChange = { [weak self] arrangement in
            self?.controls.setOrientation(arrangement == .beside ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL)
        }
        followAspectRatio(of: surface.state)
    }

    /// Shows the printer's status from `hub`: the strip, the temperatures, the light switch, the tab.
    func followStatus(in hub: PrinterStatusHub) {
        status.follow(printerID, in: hub, light: light, temperatures: surface.stats) { [weak self] in self?.onStatusChange() }
    }

    /// Told when the tab shows another camera.
    var onCameraChange: @MainActor () -> Void = {}

    /// Shows the camera at `index` (the switcher, Alt+Shift+1…9) in the same picture; the camera
    /// left keeps its connection.
    func showCamera(at index: Int) {
        guard cameras.indices.contains(index), index != shownIndex else { return }
        standby[shownIndex] = session.keepConnected()
        shownIndex = index
        surface.show(session, name: camera.name, orientation: camera.orientation)
        standby.removeValue(forKey: index)?.detach()
        if Int(gtk_drop_down_get_selected(gcast(switcher))) != index { gtk_drop_down_set_selected(gcast(switcher), guint(index)) }
        onCameraChange()
    }

    /// Tells no one any more: its tab and window are going (a recording ending later, after Quit
    /// closed it, has no window left to toast in).
    func forgetListeners() {
        onStateChange = { _ in }
        onStatusChange = {}
        onRecordingChange = {}
        onMessage = { _, _ in }
    }

    /// Detaches the video from the sessions (the last view leaving stops a stream).
    func dismantle() {
        surface.dismantle()
        standby.values.forEach { $0.detach() }
        standby = [:]
    }

    /// Saves the current picture at the stream's full resolution as a PNG, upright (see SnapshotWriter).
    func takeSnapshot(into folder: URL = SavedFiles.folder(.pictures),
                      completion: @escaping @MainActor (Result<URL, SnapshotWriter.Failure>) -> Void) {
        let (printer, orientation) = (camera.fullName, camera.orientation)
        session.captureFullResolution(executor: MainLoopExecutor.main) { frame in
            MainActor.assumeIsolated {
                guard let frame else { return completion(.failure(.noPicture)) }
                SnapshotWriter.save(frame, printer: printer, orientation: orientation, into: folder, completion: completion)
            }
        }
    }

    /// Hides the control bar (fullscreen shows only the video).
    func setControlsHidden(_ hidden: Bool) {
        gtk_widget_set_visible(controls.widget, (!hidden).gboolean)
    }

    func cameraSurface(_ surface: CameraSurface, didChange state: SessionState) {
        followAspectRatio(of: state)
        onStateChange(state)
    }

    /// The layout judges its arrangements by the stream's shape once it is known.
    private func followAspectRatio(of state: SessionState) {
        if state == .live, let size = session.stats.sourceSize, size.width > 0, size.height > 0 {
            let ratio = Double(size.width) / Double(size.height)
            layout.contentAspectRatio = camera.orientation.isSideways ? 1 / ratio : ratio
        }
    }
}
