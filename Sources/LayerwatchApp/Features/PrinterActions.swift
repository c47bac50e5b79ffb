import CGtk
import CameraKit
import Foundation
import GtkKit
import StatusKit

/// The `printer` actions of one view of a printer (`Feature.Scope.printer`: pause, resume, stop,
/// speed, edit, pop out, show camera N), in a group inserted on the widget that holds the view and
/// its controls — a tab's page (its farm tile inserts the same group), a mini window — and the
/// `PrinterContext` they read: its buttons, menus and keys act on that printer and tell the outcome
/// in that view's window. GTK activates the application's accelerators on the window, so the main
/// window inserts its selected tab's group as its own (`MainWindow.followSelectedPrinter`). It
/// follows the printer's status itself, so every view's controls are right, selected or not.
@MainActor
final class PrinterActions: PrinterContext {
    /// Where one view shows the printer: its name there, and the window (with its toasts) a
    /// command's question and messages go to.
    struct Place {
        let name: String
        let window: UnsafeMutablePointer<GtkWidget>
        let toast: @MainActor (String) -> Void
    }

    let group = GObjectRef(adopting: g_simple_action_group_new()!)
    let printerID: UUID
    private let hub: PrinterStatusHub
    private let commands: PrintCommands
    private let printFiles: PrintFiles
    private unowned let library: PrinterLibrary
    private unowned let context: FeatureContext
    private let page: @MainActor () -> PrinterPage?
    private let place: @MainActor () -> Place?
    private var installed: InstalledFeatures!
    private var observation: PrinterStatusHub.Observation?
    /// Told after each refresh of the actions (the view's buttons and menu follow).
    var onRefresh: @MainActor () -> Void = {}

    /// The actions of `features` for printer `printerID`, whose cameras are those of its tab
    /// (`page`) and whose commands are told about in `place`.
    init(_ features: [Feature], printerID: UUID, hub: PrinterStatusHub, commands: PrintCommands, printFiles: PrintFiles,
         library: PrinterLibrary,
         context: FeatureContext, page: @escaping @MainActor () -> PrinterPage?, place: @escaping @MainActor () -> Place?) {
        self.printerID = printerID
        self.hub = hub
        self.commands = commands
        self.printFiles = printFiles
        self.library = library
        self.context = context
        self.page = page
        self.place = place
        installed = InstalledFeatures(features, on: group.pointer, acting: self)
        observation = hub.observe(printerID: printerID) { [weak self] _ in self?.refresh() }
    }

    /// Enables each action where its feature applies to the printer now, then tells `onRefresh`.
    func refresh() {
        installed.refresh(self)
        onRefresh()
    }

    /// Whether the action of the feature named `name` can be used now.
    func isEnabled(_ name: String) -> Bool { installed.isEnabled(name) }

    // MARK: PrinterContext

    func printControl(_ command: PrintCommand) -> PrintControlAvailability {
        PrintControlAvailability(command, update: hub.latest(printerID), endpoint: hub.endpoint(of: printerID),
                                 pending: hub.pendingCommand(of: printerID), stale: hub.staleStatus(of: printerID)?.status)
    }

    var endpoint: StatusEndpoint? { hub.endpoint(of: printerID) }
    var speed: PrintSpeed? { hub.latest(printerID)?.status?.speed }
    var cameras: [Camera] { page()?.cameras ?? [] }
    var camera: Camera? { page()?.camera }
    var isSaved: Bool { library.printer(id: printerID) != nil }

    func send(_ command: PrintCommand) {
        guard let place = place() else { return }
        commands.send(command, to: printerID, name: library.printer(id: printerID)?.name ?? place.name, over: place.window,
                      toast: place.toast)
    }

    func showCamera(at index: Int) { page()?.showCamera(at: index) }
    func togglePopOut() { camera.map(context.togglePopOut) }
    func edit() { library.printer(id: printerID).map { context.showDialog(editing: $0) } }

    func choosePrintFile() {
        guard let place = place() else { return }
        PrintFileChooser.present(over: place.window) { [weak self] in self?.confirmPrint($0) }
    }

    /// Confirms printing `file` on this printer, or on every printer chosen in the farm when it is one of them.
    func confirmPrint(_ file: URL) {
        guard let place = place() else { return }
        let page = page()
        let target = PrintTarget(printerID: printerID, name: library.printer(id: printerID)?.name ?? place.name,
                                 camera: page?.camera, session: page?.session)
        let chosen = context.farmChoice
        let targets = chosen.contains(printerID) ? chosen.compactMap { $0 == printerID ? target : context.printTarget(of: $0) } : [target]
        printFiles.confirm(file, on: targets, over: place.window, toast: place.toast)
    }
}
