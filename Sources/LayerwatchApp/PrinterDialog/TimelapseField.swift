import CGtk
import GtkKit
import PrinterKit
import StreamKit

/// The printer dialog's "Timelapse": off, a picture at each layer change, or every 10, 30 or 60
/// seconds while a print runs; the video is made when the print ends. Printers with print status
/// only (a plain camera has no print to follow).
@MainActor
final class TimelapseField {
    /// The drop-down's choices, in its order.
    private static let choices: [Timelapse?] = [nil, .perLayer] + Timelapse.intervals.map { .every(seconds: $0) }
    let field: FormField

    init() {
        let titles = [tr("Off"), tr("A picture at each layer")] + Timelapse.intervals.map { String(format: tr("A picture every %d s"), $0) }
        field = FormField(title: tr("Timelapse"), choices: titles, hint: "")  // the printer's choice says what it does
    }

    var timelapse: Timelapse? {
        get { Self.choices[min(field.selected, Self.choices.count - 1)] }
        set { field.selected = Self.choices.firstIndex(of: newValue) ?? 0 }
    }
}
