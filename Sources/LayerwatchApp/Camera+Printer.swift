import PrinterKit

extension Camera {
    /// What a view of the saved printer's `camera` shows.
    init(printer: Printer, camera: PrinterCamera) throws {
        let subtitle = [printer.kind.model?.displayName, printer.kind.isBambu ? printer.host : nil]
            .compactMap { $0 }.joined(separator: " · ")
        let index = printer.cameras.firstIndex { $0.id == camera.id } ?? 0
        self.init(id: camera.id, printerID: printer.id, name: printer.name, fullName: printer.name(with: camera),
                  title: camera.title(at: index), source: try printer.source(of: camera), subtitle: subtitle.isEmpty ? nil : subtitle)
        orientation = PictureOrientation(rotation: camera.rotation, flipHorizontal: camera.flipHorizontal,
                                         flipVertical: camera.flipVertical)
    }

    /// Every camera of the saved printer, in its order; throws the first that cannot be opened.
    static func all(of printer: Printer) throws -> [Camera] {
        try printer.cameras.map { try Camera(printer: printer, camera: $0) }
    }
}
