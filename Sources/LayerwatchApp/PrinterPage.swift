import CGtk
import Foundation
import GtkKit
import StreamKit

/// Everything one printer's tab shows: its camera surface (the video, its overlays and the print's
/// status) and the control bar (with the chamber-light switch of a Bambu printer), arranged by an
/// AdaptiveLayout that moves only the bar when the window turns wide or tall. The surface is made
/// once and never moves.
@MainActor
final class PrinterPage: CameraSurfaceDelegate {
    let camera: Camera
    let session: StreamSession
    var name: String { camera.name }
    let surface: CameraSurface
    let controls = ControlBar()
    let light = ChamberLightToggle(classes: ["circular", "flat"])
    let layout: AdaptiveLayout
    /// Set while its tab is being closed for good.
    var isBeingRemoved = false
    /// Told of every state change (the tab's state indicator listens).
    var onStateChange: @MainActor (SessionState) -> Void = { _ in }
    /// Told of every change of the printer's status (the tab's progress listens).
    var onStatusChange: @MainActor () -> Void = {}
    /// Told when a recording of the camera starts or ends (the window's Record toggle listens).
    var onRecordingChange: @MainActor () -> Void = {}
    /// Says something to the user about this camera (a toast in its window).
    var onMessage: @MainActor @Sendable (String) -> Void = { _ in }

    /// The widget to put in a window or tab.
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    var state: SessionState { surface.state }
    /// The printer's status as the strip shows it; nil without one.
    var printSummary: PrintSummary? { surface.strip.summary }

    init(camera: Camera, session: StreamSession) {
        self.camera = camera
        self.session = session
        surface = CameraSurface(session: session, name: camera.name, style: .full, orientation: camera.orientation)
        layout = AdaptiveLayout(primary: surface.widget, secondary: controls.widget)
        surface.delegate = self
        controls.append(light.button)
        layout.onArrangementChange = { [weak self] arrangement in
            self?.controls.setOrientation(arrangement == .beside ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL)
        }
        followAspectRatio(of: surface.state)
    }

    /// Shows the printer's status from `hub`: the strip, the temperatures, the light switch, the tab.
    func followStatus(in hub: PrinterStatusHub) {
        surface.followStatus(of: camera.id, in: hub, light: light) { [weak self] in self?.onStatusChange() }
    }

    /// Detaches the video from the session (the last view leaving stops the stream).
    func dismantle() {
        surface.dismantle()
    }

    /// Saves the current picture at the stream's full resolution as a PNG, upright (see SnapshotWriter).
    func takeSnapshot(into folder: URL = SavedFiles.folder(.pictures),
                      completion: @escaping @MainActor (Result<URL, SnapshotWriter.Failure>) -> Void) {
        let (printer, orientation) = (name, camera.orientation)
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
