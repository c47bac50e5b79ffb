import PrinterKit

extension Camera {
    /// What a saved printer's tab shows.
    init(printer: Printer) throws {
        let subtitle = [printer.kind.model?.displayName, printer.kind.isBambu ? printer.host : nil]
            .compactMap { $0 }.joined(separator: " · ")
        self.init(id: printer.id, name: printer.name, source: try printer.source(),
                  subtitle: subtitle.isEmpty ? nil : subtitle)
        orientation = PictureOrientation(rotation: printer.rotation, flipHorizontal: printer.flipHorizontal,
                                         flipVertical: printer.flipVertical)
    }
}
