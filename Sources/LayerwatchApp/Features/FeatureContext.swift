import CameraKit
import Foundation
import PrinterKit
import StatusKit
import StreamKit

/// What the features (`Feature.all`) read and do, and nothing more: the selection and the window's
/// state their enabled-checks and toggles ask about, and the commands their handlers call (a
/// printer's features read their printer instead: `PrinterContext`). The
/// application provides it, forwarding each command to its owner; tests hand the table a fake.
@MainActor
protocol FeatureContext: AnyObject {
    // MARK: What the features ask about

    /// The selected tab's camera (the focused tile's while the farm shows); nil when there is none.
    var selectedCamera: Camera? { get }
    /// The selected tab's printer (the focused tile's while the farm shows); nil when there is none.
    var selectedPrinterID: UUID? { get }
    /// Whether any printer is saved.
    var hasSavedPrinters: Bool { get }
    var isFullscreen: Bool { get }
    var isFarmShown: Bool { get }
    /// Whether the History page shows.
    var isHistoryShown: Bool { get }
    /// Whether the farm orders the printers needing attention first.
    var attentionFirst: Bool { get }
    /// Whether the farm is in Select mode (a click on a tile chooses it).
    var isFarmSelecting: Bool { get }
    /// The printers chosen in the farm to send a file to, in their order.
    var farmChoice: [UUID] { get }

    // MARK: What the features do

    func showTab(_ id: UUID)
    func toggleFullscreen()
    func setFullscreen(_ fullscreen: Bool)
    func togglePopOut(_ camera: Camera)
    /// Opens the Add Printer dialog (`printer` nil) or the Edit Printer dialog.
    func showDialog(editing printer: Printer?)
    /// Opens the Edit Printer dialog on the printer's access code (the camera's "Edit Access Code…").
    func editAccessCode(of printer: Printer)
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
    /// Shows the History page, or what showed before it.
    func showHistory(_ shown: Bool)
    /// Shows the History page with only the prints that ended at or after `since`.
    func showHistory(since: Date)
    /// Puts the keyboard in the History page's search.
    func searchHistory()
    func setFarmSelecting(_ on: Bool)
    /// Printer `id` as Print File sends to it (its name, the camera its views show); nil when it
    /// has no tab.
    func printTarget(of id: UUID) -> PrintTarget?
    func showPrinter(_ id: UUID)
    /// Opens a saved file (a snapshot, a recording, a timelapse) in the desktop's application for it.
    func openFile(_ file: URL)
    /// Shows a saved file selected in its folder, in the desktop's file manager.
    func showInFiles(_ file: URL)
    /// Opens one of Bambu's help pages: a notification's Learn More.
    func openLink(_ url: String)
}

extension FeatureContext {
    /// Whether the selected printer is watched without a picture: stats and fullscreen, which need
    /// no particular camera otherwise, are off for it (the features acting on a camera need one).
    var selectedPrinterHasNoCamera: Bool { selectedPrinterID != nil && selectedCamera == nil }
}
