import CGtk
import GtkKit
import StreamKit

/// The stats readout in the video's corner: fps, resolution, kbit/s, decode ms, dropped frames and
/// time to first frame, refreshed once a second while shown, and below them the lines its owner
/// adds (the app's printer temperatures while its status is live: the overlay knows no printer).
/// The text sits in its rounded box, which is sized to it with padding; on a video narrower than
/// the text its long lines wrap (a long codec name too) inside the box, never past its edge.
@MainActor
public final class StatsOverlay {
    /// The rounded box.
    let widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    /// The text in it.
    let label = makeLabel(wraps: true, leading: true)
    /// Lines shown below the stream's figures from the next refresh on; none by default.
    public var extraLines: [String] = []

    init() {
        gtk_widget_add_css_class(widget, "stats-overlay")
        gtk_label_set_wrap_mode(gcast(label), PANGO_WRAP_WORD_CHAR)
        gtk_box_append(gcast(widget), label)
        gtk_widget_set_halign(widget, GTK_ALIGN_END)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        gtk_widget_set_visible(widget, false.gboolean)
    }

    public var isShown: Bool { Bool(gboolean: gtk_widget_get_visible(widget)) }
    public var text: String { String(cString: gtk_label_get_text(gcast(label))) }

    func setShown(_ shown: Bool) {
        gtk_widget_set_visible(widget, shown.gboolean)
    }

    func show(_ stats: StreamStats) {
        gtk_label_set_text(gcast(label), Self.format(stats, extraLines: extraLines))
    }

    /// The readout's text: `stats`' figures, then `extraLines`.
    static func format(_ stats: StreamStats, extraLines: [String] = []) -> String {
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
        return (lines + extraLines).joined(separator: "\n")
    }
}
