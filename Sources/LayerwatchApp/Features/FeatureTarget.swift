import CGtk
import StatusKit
import Foundation

/// What the features act on now: the printer of the print controls, the camera keys and the
/// menus — the mini window's whose actions run or are refreshed (its keys, its menu:
/// `MiniWindow.install`), else the selected tab's, the focused tile's in the farm — what its print
/// controls may do and where its commands go. It exists so that choice is made in one place, apart
/// from the application that composes the windows.
@MainActor
final class FeatureTarget {
    private unowned let library: PrinterLibrary
    private let hub: PrinterStatusHub
    private let commands: PrintCommands
    private let mainWindow: @MainActor () -> MainWindow?
    /// The window whose actions run or are refreshed (`evaluating(for:)`): `.some(nil)` for the main window.
    private var evaluatedWindow: MiniWindow??

    init(library: PrinterLibrary, hub: PrinterStatusHub, commands: PrintCommands, mainWindow: @escaping @MainActor () -> MainWindow?) {
        self.library = library
        self.hub = hub
        self.commands = commands
        self.mainWindow = mainWindow
    }

    /// Whether the print control `command` shows for that printer, and how.
    func printControl(_ command: PrintCommand) -> PrintControlAvailability {
        guard let id = printer?.id else { return .hidden }
        return PrintControlAvailability(command, update: hub.latest(id), endpoint: hub.endpoint(of: id),
                                        pending: hub.pendingCommand(of: id), stale: hub.staleStatus(of: id)?.status)
    }

    /// How Layerwatch reaches that printer's status; nil when there is no such printer.
    var endpoint: StatusEndpoint? { printer.flatMap { hub.endpoint(of: $0.id) } }

    /// That printer's speed profile as it reports it.
    var speed: PrintSpeed? { printer.flatMap { hub.latest($0.id)?.status?.speed } }

    /// Sends `command` to that printer (a stop after asking), telling the outcome in its window.
    func send(_ command: PrintCommand) {
        guard let target = printer else { return }
        commands.send(command, to: target.id, name: target.name, over: target.window, toast: target.toast)
    }

    /// The printer the print controls act on — with its name, its window and where that window
    /// shows a message.
    var printer: (id: UUID, name: String, window: UnsafeMutablePointer<GtkWidget>, toast: @MainActor (String) -> Void)? {
        if case .some(let mini?) = evaluatedWindow {
            let id = mini.camera.printerID
            return (id, library.printer(id: id)?.name ?? mini.camera.name, mini.window, { [weak mini] in mini?.toast($0) })
        }
        guard let window = mainWindow(), let page = window.tabs.selected else { return nil }
        return (page.printerID, page.name, window.window, { [weak window] in window?.toast($0) })
    }

    /// The tab of the printer the print controls act on: its cameras are the ones the menus and
    /// camera keys show.
    var page: PrinterPage? {
        printer.flatMap { mainWindow()?.tabs.page(id: $0.id) }
    }

    /// Runs `body` (one window's action, or a refresh of its actions) with the printer of `mini`,
    /// or of the main window's selection when nil.
    func evaluating(for mini: MiniWindow?, _ body: () -> Void) {
        let outer = evaluatedWindow
        evaluatedWindow = .some(mini)
        defer { evaluatedWindow = outer }
        body()
    }
}
