import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// The open mini windows, one per printer at most: popping a printer's shown camera out and back
/// in, following the camera its tab shows, opening it beside the main window (X11), remembering
/// each window's size, camera and (on X11) place in the library (so it comes back there next
/// time, which wins over beside) and telling, once, where the desktop cannot keep it on top. They
/// stay open when the main window closes (picture-in-picture while working is what they are for);
/// Quit closes them remembered, to come back with the main window next time. One owner, so the
/// windows' list, their saved sizes and what the zoom keys act on never disagree.
@MainActor
final class MiniWindows {
    private let application: OpaquePointer
    private let sessions: SessionRegistry
    private let hub: PrinterStatusHub
    /// Sends the print controls' commands (each window's `PrinterActions`).
    private let commands: PrintCommands
    /// Print File (each view's `PrinterActions`).
    private let printFiles: PrintFiles
    private unowned let library: PrinterLibrary
    private unowned let context: FeatureContext
    /// The main window, while it is open: a new mini window opens beside it.
    private let mainWindow: @MainActor () -> MainWindow?
    private var windows: [UUID: MiniWindow] = [:]
    /// Where each printer's mini window was when it closed (X11), to pop out there again.
    private var closedPositions: [UUID: (x: Int32, y: Int32)] = [:]

    /// "Back to the Tab": the printer's tab (at the window's camera) in the main window, opened if
    /// it is closed.
    var onReturnToTab: @MainActor (_ printer: UUID, _ camera: UUID) -> Void = { _, _ in }
    /// The last mini window closed while the main window is closed (not by Quit).
    var onLastClosed: @MainActor () -> Void = {}

    init(application: OpaquePointer, sessions: SessionRegistry, hub: PrinterStatusHub, commands: PrintCommands, printFiles: PrintFiles,
         library: PrinterLibrary,
         context: FeatureContext, mainWindow: @escaping @MainActor () -> MainWindow?) {
        self.application = application
        self.sessions = sessions
        self.hub = hub
        self.commands = commands
        self.printFiles = printFiles
        self.library = library
        self.context = context
        self.mainWindow = mainWindow
    }

    /// The printer's mini window, while it is open.
    subscript(id: UUID) -> MiniWindow? { windows[id] }

    /// The open mini windows.
    var all: [MiniWindow] { Array(windows.values) }

    /// Opens the mini window of the camera's printer at `size` (and, on X11, `position`), showing
    /// `camera`, or closes it when it is already open.
    func toggle(_ camera: Camera, size: (Int32, Int32) = MiniWindow.defaultSize, position: (x: Int32, y: Int32)? = nil) {
        let id = camera.printerID
        if let open = windows[id] {
            open.close()
            return
        }
        // Where the user left it, else beside the main window (X11; on Wayland the desktop places it).
        let place = position ?? closedPositions[id] ?? mainWindow().flatMap { WindowPosition.beside($0.window, size: size) }
        let mini = MiniWindow(camera: camera, session: sessions.session(for: camera.source), application: application, size: size,
                              position: place)
        // Its printer's actions, its cameras those of the printer's tab while the main window is open.
        let actions = PrinterActions(Feature.placed(\.miniWindowAction).map(\.feature) + [.printDroppedFile], printerID: id, hub: hub, commands: commands, printFiles: printFiles,
                                     library: library, context: context, page: { [weak self] in self?.mainWindow()?.tabs.page(id: id) },
                                     place: { [weak mini] in
                                         mini.map { mini in .init(name: mini.camera.name, window: mini.window, toast: { [weak mini] in mini?.toast($0) }) }
                                     })
        mini.install(actions, menu: Feature.placed(\.miniWindowMenuItem).map(\.feature))
        windows[id] = mini
        mini.followStatus(in: hub)
        mini.onClosed = { [weak self, weak mini] in
            guard let self, let mini, windows[id] === mini else { return }
            windows[id] = nil
            closedPositions[id] = mini.position
            library.setMiniWindow(nil, for: id)
            if windows.isEmpty, mainWindow() == nil { onLastClosed() }
        }
        mini.onReturnToTab = { [weak self, weak mini] in
            guard let self, let mini else { return }
            onReturnToTab(id, mini.camera.id)
        }
        mini.present()
        remember(mini)
        if mini.keepAbove == .unsupported, !library.config.keepAboveHintShown {
            library.markKeepAboveHintShown()
            mini.toast(KeepAboveHint.text())
        }
    }

    /// Opens again the mini windows listed in the library (`saved`) over `window`'s restored tabs,
    /// at their sizes and (X11) positions; each tab shows the camera its mini window shows (one
    /// left open when the main window closed) or showed.
    func restore(_ saved: [AppConfig.MiniWindow], over window: MainWindow) {
        for mini in saved {
            guard let page = window.tabs.page(id: mini.printerID) else { continue }
            let alreadyOpen = windows[mini.printerID]
            page.showCamera(at: page.cameras.firstIndex { $0.id == (alreadyOpen?.camera.id ?? mini.cameraID) } ?? 0)
            guard alreadyOpen == nil, let camera = page.camera else { continue }
            let position = mini.x.flatMap { x in mini.y.map { (x: Int32(x), y: Int32($0)) } }
            toggle(camera, size: (Int32(mini.width), Int32(mini.height)), position: position)
        }
    }

    /// Shows the camera `page` shows now in its printer's mini window, if one is open.
    func follow(_ page: PrinterPage) {
        guard let mini = windows[page.printerID], let camera = page.camera, let session = page.session else { return }
        mini.show(camera, session: session)
        remember(mini)
    }

    /// Lists `mini` in the library with its printer, camera, size and (X11) position.
    private func remember(_ mini: MiniWindow) {
        let id = mini.camera.printerID
        let position = mini.position
        library.setMiniWindow(.init(printerID: id, cameraID: mini.camera.id, width: Int(mini.size.width), height: Int(mini.size.height),
                                    x: position.map { Int($0.x) }, y: position.map { Int($0.y) }),
                              for: id)
    }

    /// Closes the printer's mini window, if it is open (its printer was edited or removed).
    func close(_ id: UUID) {
        windows[id]?.close()
    }

    /// Closes every mini window, keeping each listed in the library at its size, to come back with
    /// the main window next time (Quit).
    func closeRemembering() {
        for (id, mini) in windows {
            remember(mini)
            windows[id] = nil  // its closing is not the user's (it may end after the key that quit)
            mini.close()
        }
    }
}
