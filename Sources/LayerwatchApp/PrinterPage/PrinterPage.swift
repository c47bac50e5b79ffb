import CGtk
import CameraKit
import Foundation
import GtkKit
import StreamKit

/// Everything one printer's tab shows: its camera surface (the video, its overlays and the print's
/// status) and the control bar (with the camera switcher of a printer with several cameras and the
/// chamber-light switch of a Bambu printer), arranged by an AdaptiveLayout that moves only the bar
/// when the window turns wide or tall. The surface is made once and never moves; switching cameras
/// shows the other camera's session in it, each camera keeping its one connection meanwhile. A
/// printer watched without a picture has no surface: a `NoCameraArea` (the job's thumbnail where
/// the printer serves one) stands in its place, with the same status strip and control bar.
@MainActor
final class PrinterPage: CameraSurfaceDelegate {
    /// The printer and its cameras.
    let printer: PrinterCameras
    /// The printer's cameras in its order (a command-line or demo tab has one; a printer watched
    /// without a picture none).
    var cameras: [Camera] { printer.cameras }
    /// Their sessions, in the same order.
    let sessions: [StreamSession]
    /// Whether the printer's status was live at its last change (`retryCamerasOnceLive`).
    private var statusWasLive = false
    /// Which camera the tab shows.
    private(set) var shownIndex = 0
    /// The camera shown; nil for a printer without a camera.
    var camera: Camera? { cameras.indices.contains(shownIndex) ? cameras[shownIndex] : nil }
    /// The shown camera's session.
    var session: StreamSession? { sessions.indices.contains(shownIndex) ? sessions[shownIndex] : nil }
    var printerID: UUID { printer.printerID }
    var name: String { printer.name }
    /// The window's subtitle: the shown camera's, else the printer's.
    var subtitle: String { camera?.subtitle ?? printer.subtitle }
    /// The video; nil for a printer watched without a picture.
    let surface: CameraSurface?
    /// The picture's `camera` actions (`CameraActions`); none without a picture.
    private(set) var cameraActions: GObjectRef<UnsafeMutablePointer<GSimpleActionGroup>>?
    /// Those its farm tile's menu offers, which the main window takes while the farm shows.
    private(set) var tileActions: GObjectRef<UnsafeMutablePointer<GSimpleActionGroup>>?
    /// Where Save Snapshot and Record save: the Preferences' folders, as its window follows them.
    var folders: @MainActor () -> (snapshots: URL, recordings: URL) = { (SavedFiles.folder(.pictures), SavedFiles.folder(.videos)) }
    /// Where its recordings are listed while they run (the application's, its window's to set);
    /// none, it records nothing.
    var recordings: Recordings?
    /// Its printer's `printer` actions (`PrinterActions`), which its control bar and its farm tile
    /// use; given by the window that opens it (`install`).
    private(set) var printerActions: PrinterActions?
    /// What stands in the video's place for a printer without a camera.
    let noCamera: NoCameraArea?
    /// Its last print below that placeholder while the printer is idle.
    let lastPrint: LastPrintView?
    /// The toasts' place: over the picture, above its status strip, so they never cover the
    /// control bar (nor the strip).
    let toasts: UnsafeMutablePointer<GtkWidget>
    /// The printer's status over the surface's bottom edge, whichever camera it shows.
    let status = PrintStatusBinding(style: .full)
    /// Its buttons: the camera's only where it has one.
    let controls: ControlBar
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
    /// The shown camera's state; idle without a camera.
    var state: SessionState { surface?.state ?? .idle }
    /// The printer's status as the strip shows it; nil without one.
    var printSummary: PrintSummary? { status.summary }

    /// A page for `printer`, each camera's session from `session`.
    init(printer: PrinterCameras, session: (Camera) -> StreamSession) {
        self.printer = printer
        sessions = printer.cameras.map(session)
        // An overlay without a child is as large as its toast: nothing while none shows.
        toasts = adw_toast_overlay_new()
        gtk_widget_set_halign(toasts, GTK_ALIGN_CENTER)
        let primary: UnsafeMutablePointer<GtkWidget>
        if let first = printer.cameras.first {
            let surface = CameraSurface(session: sessions[0], name: first.name, style: .full, orientation: first.orientation)
            if first.isDemo { surface.markAsDemo() }
            surface.addBottomOverlay(status.strip.widget)
            surface.addAboveBottomOverlays(toasts)
            self.surface = surface
            noCamera = nil
            lastPrint = nil
            primary = surface.widget
        } else {
            let area = NoCameraArea(style: .full)
            let last = LastPrintView(style: .full)
            area.addBelowPlaceholder(last.line)
            lastPrint = last
            area.addBottomOverlay(status.strip.widget)
            area.addAboveBottomOverlays(toasts)
            surface = nil
            noCamera = area
            primary = area.widget
        }
        controls = ControlBar(withCamera: !printer.cameras.isEmpty)
        layout = AdaptiveLayout(primary: primary, secondary: controls.widget)
        switcher = makeDropDown(printer.cameras.map(\.title))
        gtk_widget_set_tooltip_text(switcher, tr("Camera"))
        setAccessibleLabel(switcher, tr("Camera"))
        gtk_widget_set_visible(switcher, (cameras.count > 1).gboolean)
        surface?.delegate = self
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
        followAspectRatio(of: state)
        // Its picture's actions, which the main window takes as its own while the tab is selected.
        if let surface {
            cameraActions = CameraActions.install(for: surface, of: self, on: layout.widget)
            tileActions = CameraActions.group(of: CameraActions.tileFeatures, for: surface, of: self)
        }
        refreshPictureActions()
    }

    /// Enables its picture's actions where they apply to what it shows now (Save Snapshot while
    /// the picture is live) and shows whether its camera records.
    func refreshPictureActions() {
        for group in [cameraActions, tileActions].compactMap({ $0 }) { CameraActions.refresh(group, for: self) }
    }

    /// Shows the printer's status from `hub`: the strip, the temperatures, the light switch, the tab.
    func followStatus(in hub: PrinterStatusHub) {
        status.follow(printerID, in: hub, light: light, temperatures: surface?.stats) { [weak self] in
            guard let self else { return }
            retryCamerasOnceLive(in: hub)
            let update = hub.latest(printerID)
            lastPrint?.update(state: update?.connection == .live ? update?.status?.state : nil, live: false)
            onStatusChange()
        }
        noCamera?.follow(printerID, in: hub)
    }

    /// Shows the printer's last print from `lastPrints` under its placeholder while it is idle.
    func followLastPrint(in lastPrints: LastPrints) {
        lastPrint?.follow(printerID, in: lastPrints)
    }

    /// Takes `actions` as its printer's: its buttons find them, and its control bar follows them.
    func install(_ actions: PrinterActions) {
        printerActions = actions
        gtk_widget_insert_action_group(layout.widget, "printer", gcast(actions.group.pointer))
        PrintFileDrop.install(on: layout.widget, over: surface) { [unowned self] in name }
        actions.onRefresh = { [weak self, unowned actions] in self?.controls.refresh(actions) }
        actions.refresh()
    }

    /// A printer whose status connection turns its camera on as it connects (an Elegoo printer's):
    /// a camera that failed before (its stream not on yet) is tried again each time the status
    /// comes live.
    private func retryCamerasOnceLive(in hub: PrinterStatusHub) {
        let live = hub.latest(printerID)?.connection == .live
        defer { statusWasLive = live }
        guard live, !statusWasLive, hub.endpoint(of: printerID)?.turnsCameraOn == true else { return }
        for session in sessions {
            if case .failed = session.state { session.restart() }
        }
    }

    /// Told when the tab shows another camera.
    var onCameraChange: @MainActor () -> Void = {}

    /// Shows the camera at `index` (the switcher, Alt+Shift+1…9) in the same picture; the camera
    /// left keeps its connection.
    func showCamera(at index: Int) {
        guard cameras.indices.contains(index), index != shownIndex, let surface else { return }
        standby[shownIndex] = sessions[shownIndex].keepConnected()
        shownIndex = index
        surface.show(sessions[index], name: cameras[index].name, orientation: cameras[index].orientation)
        standby.removeValue(forKey: index)?.detach()
        if Int(gtk_drop_down_get_selected(gcast(switcher))) != index { gtk_drop_down_set_selected(gcast(switcher), guint(index)) }
        refreshPictureActions()
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
        surface?.dismantle()
        noCamera?.dismantle()
        lastPrint?.dismantle()
        standby.values.forEach { $0.detach() }
        standby = [:]
    }

    /// Saves the current picture at the stream's full resolution as a PNG, upright (see SnapshotWriter).
    func takeSnapshot(into folder: URL = SavedFiles.folder(.pictures),
                      completion: @escaping @MainActor (Result<URL, SnapshotWriter.Failure>) -> Void) {
        guard let camera, let session else { return completion(.failure(.noPicture)) }
        let (fullName, orientation) = (camera.fullName, camera.orientation)
        session.captureFullResolution(executor: MainLoopExecutor.main) { frame in
            MainActor.assumeIsolated {
                guard let frame else { return completion(.failure(.noPicture)) }
                SnapshotWriter.save(frame, printer: fullName, orientation: orientation, into: folder, completion: completion)
            }
        }
    }

    /// Hides the control bar (fullscreen shows only the video).
    func setControlsHidden(_ hidden: Bool) {
        gtk_widget_set_visible(controls.widget, (!hidden).gboolean)
    }

    func cameraSurface(_ surface: CameraSurface, didChange state: SessionState) {
        followAspectRatio(of: state)
        refreshPictureActions()
        onStateChange(state)
    }

    /// The layout judges its arrangements by the stream's shape once it is known.
    private func followAspectRatio(of state: SessionState) {
        if state == .live, let camera, let size = session?.stats.sourceSize, size.width > 0, size.height > 0 {
            let ratio = Double(size.width) / Double(size.height)
            layout.contentAspectRatio = camera.orientation.isSideways ? 1 / ratio : ratio
        }
    }
}
