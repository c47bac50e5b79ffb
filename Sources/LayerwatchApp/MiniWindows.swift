import CGtk
import Foundation
import GtkKit
import StreamKit

/// The open mini windows, one per printer at most: popping a printer out and back in, remembering
/// each window's size in the library (so it comes back next time) and telling, once, where the
/// desktop cannot keep it on top. One owner, so the windows' list, their saved sizes and what the
/// zoom keys act on never disagree.
@MainActor
final class MiniWindows {
    private let application: OpaquePointer
    private let sessions: SessionRegistry
    private let hub: PrinterStatusHub
    private unowned let library: PrinterLibrary
    private unowned let context: FeatureContext
    /// The main window, while it is open: "Back to the Tab" reveals the printer there.
    private let mainWindow: @MainActor () -> MainWindow?
    private var windows: [UUID: MiniWindow] = [:]

    init(application: OpaquePointer, sessions: SessionRegistry, hub: PrinterStatusHub, library: PrinterLibrary,
         context: FeatureContext, mainWindow: @escaping @MainActor () -> MainWindow?) {
        self.application = application
        self.sessions = sessions
        self.hub = hub
        self.library = library
        self.context = context
        self.mainWindow = mainWindow
    }

    /// The printer's mini window, while it is open.
    subscript(id: UUID) -> MiniWindow? { windows[id] }

    /// The open mini windows.
    var all: [MiniWindow] { Array(windows.values) }

    /// Opens the camera's mini window at `size`, or closes it when it is already open.
    func toggle(_ camera: Camera, size: (Int32, Int32) = MiniWindow.defaultSize) {
        if let open = windows[camera.id] {
            open.close()
            return
        }
        let mini = MiniWindow(camera: camera, session: sessions.session(for: camera.source), application: application, size: size)
        mini.install(Feature.placed(\.miniWindowAction).map(\.feature), for: context)
        windows[camera.id] = mini
        mini.followStatus(in: hub)
        mini.onClosed = { [weak self, weak mini] in
            guard let self, let mini, windows[camera.id] === mini else { return }
            windows[camera.id] = nil
            // Closing the main window closes the mini windows too: keep them listed for next time.
            if mainWindow() != nil { library.setMiniWindow(nil, for: camera.id) }
        }
        mini.onReturnToTab = { [weak self] in self?.mainWindow()?.reveal(printer: camera.id) }
        mini.present()
        library.setMiniWindow(.init(printerID: camera.id, width: Int(mini.size.width), height: Int(mini.size.height)), for: camera.id)
        if mini.keepAbove == .unsupported, !library.config.keepAboveHintShown {
            library.markKeepAboveHintShown()
            mini.toast(KeepAboveHint.text())
        }
    }

    /// Closes the printer's mini window, if it is open (its printer was edited or removed).
    func close(_ id: UUID) {
        windows[id]?.close()
    }

    /// Closes every mini window, keeping each listed in the library at its size, to come back with
    /// the main window next time (the main window is closing).
    func closeRemembering() {
        for (id, mini) in windows {
            library.setMiniWindow(.init(printerID: id, width: Int(mini.size.width), height: Int(mini.size.height)), for: id)
            mini.close()
        }
    }

    /// The picture of the mini window that has the keyboard, if one has: the zoom keys act on it.
    var activeSurface: CameraSurface? {
        guard let active = gtk_application_get_active_window(gcast(application)) else { return nil }
        return windows.values.first { UnsafeMutableRawPointer($0.window) == UnsafeMutableRawPointer(active) }?.surface
    }
}
