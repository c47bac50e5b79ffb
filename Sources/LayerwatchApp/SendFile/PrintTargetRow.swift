import CGtk
import CameraKit
import Foundation
import GtkKit
import StatusKit
import StreamKit

/// One printer in the Print File confirmation: its live picture (a surface of its own on the
/// printer's one session), its name and state, why it cannot take the file when it cannot, and
/// once Print is pressed the sending's progress (sent of total, speed, time left) and its result.
@MainActor
final class PrintTargetRow {
    /// Where the printer is in the sending.
    enum Stage: Equatable {
        /// Not sent yet: ready, or refusing with the reason.
        case waiting
        case sending
        /// Sent; waiting for the printer to report the print.
        case starting
        /// The printer reports the print.
        case printing
        /// Sent and asked to print, but the printer did not report the print in time: why, in
        /// words. Over for the dialog, yet a later report still moves it to printing.
        case unreported(String)
        /// Refused, failed or cancelled: why, in words.
        case ended(String)
    }

    let target: PrintTarget
    let widget: UnsafeMutablePointer<GtkWidget>
    let surface: CameraSurface?
    private(set) var stage = Stage.waiting
    /// Why it cannot take the file now; nil when it can.
    private(set) var refusal: String?
    private let state = makeLabel(classes: ["dim-label"], leading: true)
    private let reason = makeLabel(classes: ["error"], wraps: true, leading: true)
    private let bar = gtk_progress_bar_new()!
    private let detail = makeLabel(classes: ["dim-label", "numeric"], wraps: true, leading: true)

    /// A row for `target`, its picture `pictureWidth` wide (a single printer's large, several small).
    init(_ target: PrintTarget, pictureWidth: Int32) {
        self.target = target
        let large = pictureWidth > 300
        widget = gtk_box_new(large ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, 12)
        gtk_widget_add_css_class(widget, "print-target")
        if let session = target.session, let camera = target.camera {
            let surface = CameraSurface(session: session, name: target.name, style: .tile, orientation: camera.orientation)
            self.surface = surface
            // A 16:9 box of a fixed size: the dialog is sized by its content.
            gtk_widget_set_size_request(surface.widget, pictureWidth, pictureWidth * 9 / 16)
            gtk_widget_set_halign(surface.widget, GTK_ALIGN_START)
            gtk_widget_set_hexpand(surface.widget, false.gboolean)
            gtk_widget_add_css_class(surface.widget, "card")
            gtk_widget_set_overflow(surface.widget, GTK_OVERFLOW_HIDDEN)
            gtk_box_append(gcast(widget), surface.widget)
        } else {
            surface = nil
        }
        let text = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        gtk_widget_set_hexpand(text, true.gboolean)
        gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
        let name = makeLabel(target.name, classes: ["heading"], leading: true)
        gtk_label_set_ellipsize(gcast(name), PANGO_ELLIPSIZE_END)
        for child in [name, state, reason, bar, detail] { gtk_box_append(gcast(text), child) }
        gtk_box_append(gcast(widget), text)
        gtk_widget_set_visible(bar, false.gboolean)
        gtk_widget_set_visible(detail, false.gboolean)
        gtk_widget_set_visible(reason, false.gboolean)
    }

    /// Shows the printer's status as the hub has it now, and (before sending) whether it can take a file.
    /// `sending` is the file's sending to it (nil while it has no status connection).
    func show(_ update: StatusMonitor.Update?, sending: PrintFileSending?) {
        let live = update?.connection == .live ? update?.status : nil
        gtk_label_set_text(gcast(state), live.map(StatusText.state(of:)) ?? tr("Offline"))
        guard stage == .waiting else { return }
        if let sending {
            refusal = sending.refusal(given: update)
                ?? (live?.needsDeveloperMode == true ? CommandOutcome.developerModeHint : nil)
        } else {
            refusal = tr("Layerwatch has no connection to this printer’s status.")
        }
        setReason(refusal)
    }

    /// Moves to `stage`, showing it.
    func enter(_ stage: Stage) {
        self.stage = stage
        switch stage {
        case .waiting:
            break
        case .sending:
            gtk_widget_set_visible(bar, true.gboolean)
            showDetail(tr("Sending…"))
        case .starting:
            gtk_progress_bar_set_fraction(gcast(bar), 1)
            showDetail(tr("Starting…"))
        case .printing:
            // Its state line says it prints.
            gtk_widget_set_visible(bar, false.gboolean)
            gtk_widget_set_visible(detail, false.gboolean)
            setReason(nil)
        case .ended(let why), .unreported(let why):
            gtk_widget_set_visible(bar, false.gboolean)
            gtk_widget_set_visible(detail, false.gboolean)
            setReason(why)
        }
    }

    /// Shows how far the sending has come: "12 MB of 300 MB — 45 MB/s, 7 s left".
    func showProgress(_ progress: PrintFileSending.Progress) {
        gtk_progress_bar_set_fraction(gcast(bar), progress.fraction)
        showDetail(progress.summary)
    }

    /// What the row says below the name now (tests read it).
    var detailText: String { String(cString: gtk_label_get_text(gcast(detail))) }
    var reasonText: String? { refusalShown ? String(cString: gtk_label_get_text(gcast(reason))) : nil }
    private var refusalShown: Bool { Bool(gboolean: gtk_widget_get_visible(reason)) }

    func dismantle() { surface?.dismantle() }

    private func showDetail(_ text: String) {
        gtk_label_set_text(gcast(detail), text)
        gtk_widget_set_visible(detail, true.gboolean)
    }

    private func setReason(_ text: String?) {
        gtk_label_set_text(gcast(reason), text ?? "")
        gtk_widget_set_visible(reason, (text != nil).gboolean)
    }

    /// A size as the sending's progress gives it ("12.3 MB").
    static func size(_ bytes: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
    }
}
