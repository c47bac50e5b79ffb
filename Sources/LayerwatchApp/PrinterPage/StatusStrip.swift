import CGtk
import CameraKit
import GtkKit

/// The print's status over the bottom of the video: a state chip, the job, a progress bar, the
/// layer and the time left with the clock time it ends — or the state when not printing (paused,
/// failed with the printer's error, finished, idle), or "Offline" with why the status is not
/// coming; while a printer that answered reconnects, its last status dimmed with its age. In a mini
/// window it is two short lines: which printer and job, then the bar, the percentage and the time
/// left (or the state and its message); under a farm tile's picture, the full strip without the
/// layer and with the message on one line. Hidden for cameras without status. Separate from the
/// camera's status card: one can fail, the other not.
@MainActor
final class StatusStrip {
    /// What the owner embeds: a clamp that keeps the full strip readable in a wide window, or the
    /// compact strip itself.
    let widget: UnsafeMutablePointer<GtkWidget>
    private let card: UnsafeMutablePointer<GtkWidget>
    private let chip = makeLabel(classes: ["state-chip"])
    private let job = makeLabel(classes: ["job"], leading: true)
    private let percent = makeLabel(classes: ["percent", "numeric"])
    private let bar = gtk_progress_bar_new()!
    private let layers = makeLabel(classes: ["caption"], leading: true)
    private let time = makeLabel(classes: ["caption", "numeric"])
    private let message = makeLabel(classes: ["caption"], leading: true)
    /// The compact strip's first line: the printer and its job, so a mini window says what it shows.
    private let title = makeLabel(classes: ["job"], leading: true)
    /// The printer's name, which the compact strip's first line starts with.
    var printerName: String? {
        didSet { show(summary) }
    }
    /// Bambu's alerts in words, with their links.
    let alerts: AlertList
    /// The full strip's second row (layer, time); nil in the compact one.
    private let details: UnsafeMutablePointer<GtkWidget>?
    private let isCompact: Bool
    /// A row the owner added below the strip's own (the heaters and filament); nil without one.
    private var extra: UnsafeMutablePointer<GtkWidget>?
    private(set) var tone = PrintSummary.Tone.neutral
    private(set) var summary: PrintSummary?

    init(style: CameraSurface.Style) {
        isCompact = style == .compact
        alerts = AlertList(style: style)
        card = gtk_box_new(GTK_ORIENTATION_VERTICAL, isCompact ? 2 : 4)
        gtk_widget_add_css_class(card, "status-strip")
        gtk_widget_set_valign(card, GTK_ALIGN_END)
        gtk_label_set_ellipsize(gcast(job), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(job, true.gboolean)
        gtk_widget_set_valign(bar, GTK_ALIGN_CENTER)
        if isCompact {
            gtk_widget_add_css_class(card, "compact")
            gtk_label_set_ellipsize(gcast(message), PANGO_ELLIPSIZE_END)
            gtk_widget_set_hexpand(message, true.gboolean)
            gtk_widget_set_hexpand(bar, true.gboolean)
            gtk_label_set_ellipsize(gcast(title), PANGO_ELLIPSIZE_END)
            let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
            for child in [chip, message, bar, percent, time, alerts.widget] { gtk_box_append(gcast(row), child) }
            gtk_box_append(gcast(card), title)
            gtk_box_append(gcast(card), row)
            details = nil
            widget = card
        } else {
            let isTile = style == .tile
            if isTile {
                gtk_label_set_ellipsize(gcast(message), PANGO_ELLIPSIZE_END)
                gtk_widget_add_css_class(card, "tile")
            } else {
                gtk_label_set_wrap(gcast(message), true.gboolean)
            }
            gtk_widget_set_hexpand(layers, true.gboolean)
            let heading = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
            for child in [chip, job, percent] { gtk_box_append(gcast(heading), child) }
            let details = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
            for child in [layers, time] { gtk_box_append(gcast(details), child) }
            self.details = details
            for child in [heading, bar, details, message, alerts.widget] { gtk_box_append(gcast(card), child) }
            if isTile {
                widget = card
            } else {
                widget = adw_clamp_new()
                adw_clamp_set_maximum_size(gcast(widget), 560)
                adw_clamp_set_tightening_threshold(gcast(widget), 560)
                adw_clamp_set_child(gcast(widget), card)
            }
        }
        gtk_widget_set_visible(widget, false.gboolean)
    }

    /// Adds `row` below the strip's own rows; the strip is no corner badge while the row is shown.
    func append(_ row: UnsafeMutablePointer<GtkWidget>) {
        extra = row
        gtk_box_append(gcast(card), row)
    }

    /// Shows `summary`, or hides the strip when there is none.
    func show(_ summary: PrintSummary?) {
        self.summary = summary
        gtk_widget_set_visible(widget, (summary != nil).gboolean)
        guard let summary else { return }
        gtk_widget_remove_css_class(card, "tone-\(tone.rawValue)")
        tone = summary.tone
        gtk_widget_add_css_class(card, "tone-\(tone.rawValue)")
        gtk_label_set_text(gcast(chip), summary.stateText)
        if summary.isPending { gtk_widget_add_css_class(chip, "pending") } else { gtk_widget_remove_css_class(chip, "pending") }
        if summary.isStale { gtk_widget_add_css_class(card, "stale") } else { gtk_widget_remove_css_class(card, "stale") }
        set(job, isCompact ? nil : summary.job)
        set(percent, summary.percent)
        gtk_widget_set_visible(bar, (summary.fraction != nil).gboolean)
        gtk_progress_bar_set_fraction(gcast(bar), summary.fraction ?? 0)
        set(layers, isCompact ? nil : summary.layers)
        set(time, isCompact ? summary.timeLeft : summary.timeText)
        set(message, summary.message ?? (isCompact ? summary.alerts.first?.summary : nil))
        let heading = [printerName, summary.job].compactMap { $0 }.joined(separator: " · ")
        set(title, isCompact && !heading.isEmpty ? heading : nil)
        alerts.show(summary.alerts)
        gtk_widget_set_tooltip_text(card, summary.oneLine)
        // A state alone (idle) is a badge in the corner, as the picture's age is; anything more gets
        // the whole width.
        let alone = summary.job == nil && (!isCompact || printerName == nil) && summary.fraction == nil && summary.message == nil && summary.alerts.isEmpty
            && !(extra.map { Bool(gboolean: gtk_widget_get_visible($0)) } ?? false)
        gtk_widget_set_halign(widget, alone ? GTK_ALIGN_START : GTK_ALIGN_FILL)
        if alone { gtk_widget_add_css_class(card, "alone") } else { gtk_widget_remove_css_class(card, "alone") }
        if isCompact {
            // A print under way needs no word: its bar says it (but not a command waiting for the
            // printer, nor a printer pausing, resuming or stopping).
            gtk_widget_set_visible(chip, (summary.tone != .active || summary.fraction == nil || summary.isPending || summary.isTransition
                                          || summary.isStale).gboolean)
        }
        if let details {
            gtk_widget_set_visible(details, (summary.layers != nil || summary.timeText != nil).gboolean)
        }
    }

    var isShown: Bool { Bool(gboolean: gtk_widget_get_visible(widget)) }
    /// The texts shown now, nil for a part that is hidden (for tests).
    var stateText: String? { text(of: chip) }
    var jobText: String? { text(of: job) }
    var percentText: String? { text(of: percent) }
    var layersText: String? { text(of: layers) }
    var timeText: String? { text(of: time) }
    var messageText: String? { text(of: message) }
    /// Whether it shows a last status, dimmed, while the printer reconnects.
    var isDimmed: Bool { Bool(gboolean: gtk_widget_has_css_class(card, "stale")) }
    var titleText: String? { text(of: title) }
    /// The progress bar's fraction, nil while it is hidden.
    var fraction: Double? {
        isShown && Bool(gboolean: gtk_widget_get_visible(bar)) ? gtk_progress_bar_get_fraction(gcast(bar)) : nil
    }

    private func set(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String?) {
        gtk_widget_set_visible(label, (text != nil).gboolean)
        gtk_label_set_text(gcast(label), text ?? "")
    }

    private func text(of label: UnsafeMutablePointer<GtkWidget>) -> String? {
        isShown && Bool(gboolean: gtk_widget_get_visible(label)) ? String(cString: gtk_label_get_text(gcast(label))) : nil
    }
}
