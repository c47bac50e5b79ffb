import CGtk
import GtkKit
import StatusKit
import StreamKit

/// The stats readout in the video's corner: fps, resolution, kbit/s, decode ms, dropped frames and
/// time to first frame, refreshed once a second while shown, and the printer's temperatures while
/// its status is live. The text sits in its rounded box, which is sized to it with padding; on a
/// video narrower than the text its long lines wrap (a long codec name too) inside the box, never
/// past its edge.
@MainActor
final class StatsOverlay {
    /// The rounded box.
    let widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    /// The text in it.
    let label = makeLabel(wraps: true, leading: true)
    /// The printer's status whose heaters are listed; nil for a camera without live status.
    var printerStatus: PrinterStatus?

    init() {
        gtk_widget_add_css_class(widget, "stats-overlay")
        gtk_label_set_wrap_mode(gcast(label), PANGO_WRAP_WORD_CHAR)
        gtk_box_append(gcast(widget), label)
        gtk_widget_set_halign(widget, GTK_ALIGN_END)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        gtk_widget_set_visible(widget, false.gboolean)
    }

    var isShown: Bool { Bool(gboolean: gtk_widget_get_visible(widget)) }
    var text: String { String(cString: gtk_label_get_text(gcast(label))) }

    func setShown(_ shown: Bool) {
        gtk_widget_set_visible(widget, shown.gboolean)
    }

    func show(_ stats: StreamStats) {
        gtk_label_set_text(gcast(label), Self.format(stats, printer: printerStatus))
    }

    static func format(_ stats: StreamStats, printer: PrinterStatus?) -> String {
        var lines: [String] = []
        let resolution = stats.sourceSize.map { "\($0)" } ?? "—"
        let shown = stats.outputSize.map { $0 == stats.sourceSize ? "" : " → \($0)" } ?? ""
        lines.append("\(stats.codec ?? "—")  \(resolution)\(shown)")
        if let cause = stats.fallbackCause { lines.append(String(format: tr("MJPEG fallback: WebRTC failed (%@)"), cause.kind)) }
        lines.append(String(format: tr("%.1f fps  %.0f kbit/s"), stats.framesPerSecond, stats.kilobitsPerSecond))
        lines.append(String(format: tr("decode %.1f ms  convert %.1f ms"), stats.decodeMilliseconds, stats.convertMilliseconds))
        lines.append(String(format: tr("dropped %d"), stats.droppedFrames))
        var first = stats.timeToFirstFrame.map { String(format: tr("first frame %.2f s"), $0) } ?? tr("first frame —")
        if let open = stats.timeToOpen { first += String(format: tr(" (open %.2f s)"), open) }
        lines.append(first)
        if let printer { lines += temperatures(printer) }
        return lines.joined(separator: "\n")
    }

    /// `nozzle  215 / 220 °C`, `bed  60 / 60 °C`, `chamber  32 °C`: each heater the printer reports.
    static func temperatures(_ status: PrinterStatus) -> [String] {
        let rows = StatusText.heaters(status)
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map { $0.label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.value }
    }
}
