import CGtk
import Foundation
import GtkKit

/// Popping printers out into mini windows, one per printer, remembered across starts.
extension LayerwatchApplication {
    /// Opens the camera's mini window at `size`, or closes it when it is already open.
    func togglePopOut(_ camera: Camera, size: (Int32, Int32)) {
        if let open = miniWindows[camera.printerID] {
            open.close()
            return
        }
        let mini = MiniWindow(camera: camera, session: sessions.session(for: camera.source), application: application, size: size)
        mini.install(Feature.placed(\.miniWindowAction).map(\.feature), for: self)
        miniWindows[camera.printerID] = mini
        mini.onClosed = { [weak self, weak mini] in
            guard let self, let mini, miniWindows[camera.printerID] === mini else { return }
            miniWindows[camera.printerID] = nil
            // Closing the main window closes the mini windows too: keep them listed for next time.
            if window != nil { library.setMiniWindow(nil, for: camera.printerID) }
        }
        mini.onReturnToTab = { [weak self] in
            guard let self, let window, let page = window.tabs.page(id: camera.printerID) else { return }
            window.tabs.select(page)
            window.present()
        }
        mini.present()
        library.setMiniWindow(.init(printerID: camera.printerID, cameraID: camera.id, width: Int(mini.size.width), height: Int(mini.size.height)),
                              for: camera.printerID)
        if mini.keepAbove == .unsupported, !library.config.keepAboveHintShown {
            library.markKeepAboveHintShown()
            mini.toast(KeepAboveHint.text())
        }
    }

    /// The picture the zoom keys act on: the mini window's, when one has the keyboard, else the
    /// selected tab's (none while the farm shows: tiles do not zoom).
    var zoomTarget: CameraSurface? {
        if let active = gtk_application_get_active_window(gcast(application)),
           let mini = miniWindows.values.first(where: { UnsafeMutableRawPointer($0.window) == UnsafeMutableRawPointer(active) }) {
            return mini.surface
        }
        guard let window, !window.isFarmShown else { return nil }
        return window.tabs.selected?.surface
    }
}
