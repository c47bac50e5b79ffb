import Foundation
import PrinterKit

/// A printer as its tab shows it: its id, name and the window's subtitle, and its cameras in its
/// order — none for a printer watched without a picture (a Klipper or OctoPrint printer without a
/// camera), whose tab shows its status where the video would be. A command-line or demo camera is
/// a printer of its own.
struct PrinterCameras: Equatable {
    let printerID: UUID
    let name: String
    /// The subtitle while no camera is shown: the printer's ("Klipper · 192.168.1.20").
    let subtitle: String
    let cameras: [Camera]

    /// A camera opened on its own (the command line's, the demo).
    init(camera: Camera) {
        printerID = camera.printerID
        name = camera.name
        subtitle = camera.subtitle
        cameras = [camera]
    }

    /// Every camera of the saved printer, in its order; throws the first that cannot be opened.
    init(printer: Printer) throws {
        cameras = try printer.cameras.map { try Camera(printer: printer, camera: $0) }
        printerID = printer.id
        name = printer.name
        subtitle = cameras.first?.subtitle ?? printer.subtitle(source: nil)
    }

    /// The tabs a window opens, each with its cameras: the saved `printers` (and, for those that
    /// can't be opened, why) then the `commandLine`'s cameras.
    static func tabs(of printers: [Printer], commandLine: [Camera]) -> (tabs: [PrinterCameras], unopenable: [String]) {
        var tabs: [PrinterCameras] = [], unopenable: [String] = []
        for printer in printers {
            do { tabs.append(try PrinterCameras(printer: printer)) } catch { unopenable.append("“\(printer.name)”: \(error)") }
        }
        return (tabs + commandLine.map(PrinterCameras.init(camera:)), unopenable)
    }

    /// The built-in demo camera's tab.
    var isDemo: Bool { cameras.first?.isDemo ?? false }
}
