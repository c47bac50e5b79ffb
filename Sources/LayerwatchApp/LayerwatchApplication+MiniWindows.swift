import CGtk
import Foundation
import GtkKit

/// Popping printers out into mini windows, one per printer, remembered across starts.
extension LayerwatchApplication {
    /// Opens the camera's mini window, or closes it when it is already open.
    func togglePopOut(_ camera: Camera, size: (Int32, Int32) = MiniWindow.defaultSize) {
        if let open = miniWindows[camera.id] {
            open.close()
            return
        }
        let mini = MiniWindow(camera: camera, session: sessions.session(for: camera.source), application: application, size: size)
        miniWindows[camera.id] = mini
        mini.onClosed = { [weak self, weak mini] in
            guard let self, let mini, miniWindows[camera.id] === mini else { return }
            miniWindows[camera.id] = nil
            // Closing the main window closes the mini windows too: keep them listed for next time.
            if window != nil { library.setMiniWindow(nil, for: camera.id) }
        }
        mini.onReturnToTab = { [weak self] in
            guard let self, let window, let page = window.tabs.page(id: camera.id) else { return }
            window.tabs.select(page)
            window.present()
        }
        mini.present()
        library.setMiniWindow(.init(printerID: camera.id, width: Int(mini.size.width), height: Int(mini.size.height)), for: camera.id)
        if mini.keepAbove == .unsupported, !library.config.keepAboveHintShown {
            library.markKeepAboveHintShown()
            mini.toast(KeepAboveHint.text())
        }
    }
}
