import CameraKit
import Foundation
import StatusKit

/// What a printer's features (`Feature.Scope.printer`: the print controls, edit, pop out, show
/// camera N) read and do: one printer, the one whose view — its tab, its farm tile, a mini window —
/// holds the group the action was activated in, so no feature guesses which printer a key or a
/// menu meant. `PrinterActions` is the app's; tests hand the table a fake.
@MainActor
protocol PrinterContext: AnyObject {
    /// Whether the print control `command` shows for the printer now, and how.
    func printControl(_ command: PrintCommand) -> PrintControlAvailability
    /// How Layerwatch reaches its status (whose words its print controls use); nil when it has none.
    var endpoint: StatusEndpoint? { get }
    /// Its speed profile as it reports it; nil when unknown.
    var speed: PrintSpeed? { get }
    /// Its cameras in its order, as its tab has them (none while its tab is not open).
    var cameras: [Camera] { get }
    /// The camera its view shows; nil for a printer watched without a picture.
    var camera: Camera? { get }
    /// Whether it is a saved printer (the demo and the command line's cameras are not).
    var isSaved: Bool { get }

    /// Sends `command` to it (a stop after asking), telling the outcome in the window it was asked in.
    func send(_ command: PrintCommand)
    /// Shows its camera at `index` in its tab (and so in its farm tile and mini window).
    func showCamera(at index: Int)
    /// Opens its mini window on the camera shown, or closes it.
    func togglePopOut()
    /// Opens the Edit Printer dialog on it.
    func edit()
    /// Asks for a file to print on it (and the farm's other selected printers), then confirms it.
    func choosePrintFile()
    /// Opens the confirmation of printing `file` on it (and the farm's other selected printers).
    func confirmPrint(_ file: URL)
}
