import CameraKit
import PrinterKit
import StreamKit

extension Camera {
    /// What a view of the saved printer's `camera` shows.
    init(printer: Printer, camera: PrinterCamera) throws {
        let source = try printer.source(of: camera)
        let index = printer.cameras.firstIndex { $0.id == camera.id } ?? 0
        self.init(id: camera.id, printerID: printer.id, name: printer.name, fullName: printer.name(with: camera),
                  title: camera.title(at: index), source: source,
                  subtitle: printer.subtitle(source: source))
        orientation = PictureOrientation(rotation: camera.rotation, flipHorizontal: camera.flipHorizontal,
                                         flipVertical: camera.flipVertical)
    }
}

extension Printer {
    /// What the window's subtitle says of the printer, `source` the camera shown (nil for none):
    /// "Klipper · 192.168.1.20".
    func subtitle(source: StreamSource?) -> String {
        Camera.subtitle(kind.displayName ?? tr("Camera"), of: source, host: host)
    }
}
