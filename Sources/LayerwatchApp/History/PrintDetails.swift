import Foundation
import JournalKit
import StatusKit
import StreamKit

/// The facts of a print its History page lists, each a title and a value, leaving out what the
/// print does not have (no camera, no end yet, layers or filament the printer did not report).
@MainActor
struct PrintDetails {
    let rows: [(title: String, value: String)]

    init(_ print: JournalPrint) {
        var rows = [(title: tr("Printer"), value: print.printerName)]
        if let camera = print.camera { rows.append((tr("Camera"), camera)) }
        rows.append((tr("Started"), PrintMoments.day(print.started)))
        if let ended = print.ended { rows.append((tr("Ended"), PrintMoments.time(ended, sameDayAs: print.started))) }
        if let duration = print.duration { rows.append((tr("Duration"), StatusText.duration(duration))) }
        if let layers = Self.layers(print) { rows.append((tr("Layers"), layers)) }
        if let filament = print.filamentUsed {
            rows.append((tr("Filament Used"), String(format: tr("%.1f m"), locale: .current, filament / 1000)))
        }
        self.rows = rows
    }

    /// `212 of 212`; the layer alone when the printer did not tell how many there are.
    private static func layers(_ print: JournalPrint) -> String? {
        guard let layer = print.layer else { return nil }
        guard let total = print.totalLayers else { return String(layer) }
        return String(format: tr("%d of %d"), layer, total)
    }
}
