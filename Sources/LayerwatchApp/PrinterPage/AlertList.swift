import CGtk
import CameraKit
import GtkKit
import StatusKit
import StreamKit

/// A Bambu printer's alerts in the status strip, so a failure says what went wrong and where to
/// read about it. In a tab's strip: one row per alert (the first `listedLimit`), its words and a
/// "Learn More" link to Bambu's page for its code, opened with the desktop's handler (GtkLinkButton);
/// a refused unsigned command reads as advice, not as a fault. Under a farm tile: one short line
/// (module and severity), the full words in its tooltip. Hidden without alerts, and in a mini
/// window, whose one line shows the first alert's words as its message instead.
@MainActor
final class AlertList {
    /// How many alerts a tab's strip lists; the rest are counted.
    static let listedLimit = 3

    let widget: UnsafeMutablePointer<GtkWidget>
    private let style: CameraSurface.Style
    private var rows: [(label: UnsafeMutablePointer<GtkWidget>, link: UnsafeMutablePointer<GtkWidget>)] = []
    private let line = makeLabel(classes: ["caption", "alert-line"], leading: true)
    private(set) var alerts: [BambuAlert] = []

    init(style: CameraSurface.Style) {
        self.style = style
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
        gtk_widget_add_css_class(widget, "alert-list")
        gtk_label_set_ellipsize(gcast(line), PANGO_ELLIPSIZE_END)
        gtk_label_set_wrap(gcast(line), (style == .full).gboolean)
        gtk_box_append(gcast(widget), line)
        gtk_widget_set_visible(widget, false.gboolean)
    }

    /// Shows `alerts` (nothing: hidden).
    func show(_ alerts: [BambuAlert]) {
        guard alerts != self.alerts else { return }
        self.alerts = alerts
        gtk_widget_set_visible(widget, (!alerts.isEmpty && style != .compact).gboolean)
        if style == .tile {
            // TRANSLATORS: separates the alerts a farm tile names on one line.
            gtk_label_set_text(gcast(line), alerts.map(\.shortSummary).joined(separator: tr(", ")))
            gtk_widget_set_tooltip_text(line, alerts.map(\.summary).joined(separator: "\n"))
            return
        }
        let listed = alerts.prefix(Self.listedLimit)
        while rows.count < listed.count { rows.append(makeRow()) }
        for (index, row) in rows.enumerated() {
            let alert = index < listed.count ? listed[index] : nil
            gtk_widget_set_visible(gtk_widget_get_parent(row.label), (alert != nil).gboolean)
            guard let alert else { continue }
            gtk_label_set_text(gcast(row.label), alert.summary)
            gtk_link_button_set_uri(gcast(row.link), alert.url)
            gtk_widget_set_tooltip_text(row.link, alert.url)
            let box = gtk_widget_get_parent(row.label)!
            for tone in ["advice", "fault"] { gtk_widget_remove_css_class(box, "alert-\(tone)") }
            gtk_widget_add_css_class(box, alert.isAuthorizationRefusal ? "alert-advice" : "alert-fault")
        }
        let more = alerts.count - listed.count
        gtk_label_set_text(gcast(line), more > 0 ? String(format: trPlural("and %ld more alert", "and %ld more alerts", more), more) : "")
        gtk_widget_set_visible(line, (more > 0).gboolean)
        // The line was made last of all for the tile; keep it below the rows.
        gtk_box_reorder_child_after(gcast(widget), line, rows.last.flatMap { gtk_widget_get_parent($0.label) })
    }

    private func makeRow() -> (label: UnsafeMutablePointer<GtkWidget>, link: UnsafeMutablePointer<GtkWidget>) {
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_add_css_class(row, "alert")
        let label = makeLabel(classes: ["alert-text"], wraps: true, leading: true)
        gtk_widget_set_hexpand(label, true.gboolean)
        let link = gtk_link_button_new_with_label("", tr("Learn More"))!
        gtk_widget_set_valign(link, GTK_ALIGN_CENTER)
        gtk_box_append(gcast(row), label)
        gtk_box_append(gcast(row), link)
        gtk_box_append(gcast(widget), row)
        return (label, link)
    }

    /// What a row shows: its words, its link's address and label (none on a tile's line), and
    /// whether it reads as advice rather than as a fault (for tests).
    struct Row: Equatable {
        let text: String
        let link: String?
        let linkLabel: String?
        let isAdvice: Bool
    }

    /// The rows shown now; the tile's line as one row.
    var rowsShown: [Row] {
        guard Bool(gboolean: gtk_widget_get_visible(widget)) else { return [] }
        if style == .tile { return [Row(text: String(cString: gtk_label_get_text(gcast(line))), link: nil, linkLabel: nil, isAdvice: false)] }
        return rows.compactMap { row in
            let box = gtk_widget_get_parent(row.label)!
            guard Bool(gboolean: gtk_widget_get_visible(box)) else { return nil }
            return Row(text: String(cString: gtk_label_get_text(gcast(row.label))),
                       link: gtk_link_button_get_uri(gcast(row.link)).map { String(cString: $0) },
                       linkLabel: gtk_button_get_label(gcast(row.link)).map { String(cString: $0) },
                       isAdvice: Bool(gboolean: gtk_widget_has_css_class(box, "alert-advice")))
        }
    }

    /// The "and N more" line of a tab's strip, nil while hidden.
    var moreText: String? {
        style != .tile && Bool(gboolean: gtk_widget_get_visible(line)) ? String(cString: gtk_label_get_text(gcast(line))) : nil
    }
}
