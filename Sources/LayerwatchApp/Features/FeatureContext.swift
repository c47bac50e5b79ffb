import CameraKit
import Foundation
import PrinterKit
import StatusKit
import StreamKit

/// What the features (`Feature.all`) read and do, and nothing more: the selection and the window's
/// state their enabled-checks and toggles ask about, and the commands their handlers call. The
/// application provides it, forwarding each command to its owner; tests hand the table a fake.
@MainActor
protocol FeatureContext: AnyObject {
    // MARK: What the features ask about

    /// The selected tab's camera (the focused tile's while the farm shows); nil when there is none.
    var selectedCamera: Camera? { get }
    /// The selected tab's printer (the focused tile's while the farm shows); nil when there is none.
    var selectedPrinterID: UUID? { get }
    /// The cameras of the printer the menus and camera keys act on, in its order: while
    /// `evaluating(for:)` runs (a mini window's action, or the refresh of its actions), that
    /// window's, else the selected tab's — the printer the print controls act on.
    var targetPrinterCameras: [Camera] { get }
    /// The saved printer of the selected tab (nil for the demo and command-line cameras).
    var selectedPrinter: Printer? { get }
    /// Whether any printer is saved.
    var hasSavedPrinters: Bool { get }
    var isFullscreen: Bool { get }
    var isFarmShown: Bool { get }
    /// Whether the farm orders the printers needing attention first.
    var attentionFirst: Bool { get }
    /// Whether the print control `command` shows for the printer the print controls act on (while
    /// `evaluating(for:)` runs, that window's, else the selected printer's).
    func printControl(_ command: PrintCommand) -> PrintControlAvailability
    /// Runs `body` (one window's action, or a refresh of its actions) with the print controls
    /// acting on the printer of `mini`, or of the main window's selection when nil.
    func evaluating(for mini: MiniWindow?, _ body: () -> Void)
    /// How Layerwatch reaches that printer's status (which family's words its print controls use);
    /// nil when there is no such printer.
    var printTargetEndpoint: StatusEndpoint? { get }
    /// That printer's speed profile as it reports it; nil when unknown.
    var printSpeed: PrintSpeed? { get }

    // MARK: What the features do

    func showTab(_ id: UUID)
    func toggleFullscreen()
    func setFullscreen(_ fullscreen: Bool)
    func togglePopOut(_ camera: Camera)
    /// Shows that printer's camera at `index` in its tab (and so its farm tile and mini window).
    func showCamera(at index: Int)
    /// Opens the Add Printer dialog (`printer` nil) or the Edit Printer dialog.
    func showDialog(editing printer: Printer?)
    /// Opens the Edit Printer dialog on the printer's access code (the camera's "Edit Access Code…").
    func editAccessCode(of printer: Printer)
    func editSelectedPrinter()
    /// Opens (or selects) the demo printer's tab.
    func showDemo()
    func chooseGo2RTCExport()
    func closeSelectedTab()
    func showAbout()
    /// Opens the Preferences window (or brings it up).
    func showPreferences()
    /// Ends Layerwatch: every window, the recordings closed whole, the status connections stopped.
    func quit()
    func showFarm(_ shown: Bool)
    func setAttentionFirst(_ on: Bool)
    func showPrinter(_ id: UUID)
    /// Opens a saved file (a snapshot, a recording, a timelapse) in the desktop's application for it.
    func openFile(_ file: URL)
    /// Shows a saved file selected in its folder, in the desktop's file manager.
    func showInFiles(_ file: URL)
    /// Sends `command` to that printer (a stop after asking), telling the outcome where it was asked.
    func sendPrintCommand(_ command: PrintCommand)
    /// Opens one of Bambu's help pages: a notification's Learn More.
    func openLink(_ url: String)
}

extension FeatureContext {
    /// Whether the selected printer is watched without a picture: stats and fullscreen, which need
    /// no particular camera otherwise, are off for it (the features acting on a camera need one).
    var selectedPrinterHasNoCamera: Bool { selectedPrinterID != nil && selectedCamera == nil }
}
