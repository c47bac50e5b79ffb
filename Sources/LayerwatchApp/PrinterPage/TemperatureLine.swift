import CGtk
import GtkKit
import StatusKit
import StreamKit

/// The heaters where people look, in one compact line — `Nozzle 215/220 °C · Bed 60/60 °C ·
/// Chamber 31 °C` (current/target while heating, current alone when off) — with tabular figures so
/// it does not jitter as readings change. The stats overlay keeps its own, longer list.
@MainActor
final class TemperatureLine {
    let widget = makeLabel(classes: ["caption", "numeric", "temperature-line"], leading: true)

    init() {
        gtk_label_set_ellipsize(gcast(widget), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(widget, true.gboolean)
        gtk_widget_set_visible(widget, false.gboolean)
    }

    var text: String? { Bool(gboolean: gtk_widget_get_visible(widget)) ? String(cString: gtk_label_get_text(gcast(widget))) : nil }

    func show(_ status: PrinterStatus?) {
        let line = status.flatMap(Self.text)
        gtk_label_set_text(gcast(widget), line ?? "")
        gtk_widget_set_tooltip_text(widget, line)
        gtk_widget_set_visible(widget, (line != nil).gboolean)
    }

    /// The line for `status`; nil when it reports no heater.
    static func text(_ status: PrinterStatus) -> String? {
        var rows = status.nozzles.enumerated().map { index, nozzle in
            (status.nozzles.count > 1 ? String(format: tr("Nozzle %d"), index + 1) : tr("Nozzle"), nozzle)
        }
        if let bed = status.bed { rows.append((tr("Bed"), bed)) }
        if let chamber = status.chamber { rows.append((tr("Chamber"), chamber)) }
        // TRANSLATORS: a heater and its reading on the status strip: "Bed 60/60 °C".
        let parts = rows.map { String(format: tr("%@ %@"), $0.0, reading($0.1)) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// `215/220 °C` while heating, `24 °C` when off or the target is unknown.
    private static func reading(_ heater: PrinterStatus.Temperature) -> String {
        let current = PrinterNumber.rounded(heater.current)
        guard let target = heater.target, target > 0 else { return String(format: tr("%d °C"), current) }
        return String(format: tr("%d/%d °C"), current, PrinterNumber.rounded(target))
    }
}
