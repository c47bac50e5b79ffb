import CGtk
import CameraKit
import Foundation
import GtkKit
import JournalKit
import StatusKit
import StreamKit

/// An idle printer's last print, from the journal, rather than nothing: a line ("Last print:
/// benchy.gcode · finished 2 h ago", with the result's icon in its colour) — in its farm tile
/// (`.tile`) with the print's final picture where the tile has no live picture to show (no camera,
/// or a camera not showing one), and in the tab of a printer without a camera (`.full`), under its
/// placeholder. It follows `LastPrints`, so a print that just ended replaces it; the picture is
/// decoded off the main loop. Hidden while the printer prints, pauses or prepares.
@MainActor
final class LastPrintView {
    /// The line, for the tile's caption.
    let line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
    /// The final picture, to lay over the tile's picture; none in a tab.
    let picture: UnsafeMutablePointer<GtkWidget>?
    private let icon = gtk_image_new()!
    private let label = makeLabel(leading: true)
    private var observation: LastPrints.Observation?
    /// Rewords "2 h ago" as time passes.
    private var ticker: RepeatingTimer?
    private(set) var print: JournalPrint?
    /// The picture shown and the file it came from.
    private var texture: GObjectRef<OpaquePointer>?
    private var pictureFile: URL?
    /// Whether the printer is idle (not printing, paused or preparing), and whether the tile shows
    /// a live picture.
    private var isIdle = true
    private var isLive = false

    init(style: CameraSurface.Style) {
        gtk_widget_add_css_class(line, "last-print")
        gtk_label_set_ellipsize(gcast(label), PANGO_ELLIPSIZE_END)
        gtk_box_append(gcast(line), icon)
        gtk_box_append(gcast(line), label)
        if style == .full {
            gtk_widget_set_halign(line, GTK_ALIGN_CENTER)
            picture = nil
        } else {
            gtk_widget_add_css_class(label, "caption")
            gtk_widget_set_hexpand(label, true.gboolean)
            let picture = gtk_picture_new()!
            gtk_widget_add_css_class(picture, "last-print-picture")
            gtk_picture_set_alternative_text(gcast(picture), tr("The last print's final picture"))
            gtk_widget_set_can_target(picture, false.gboolean)
            self.picture = picture
        }
        refresh()
    }

    /// Shows printer `printerID`'s last print from `lastPrints` from now on.
    func follow(_ printerID: UUID, in lastPrints: LastPrints) {
        observation = lastPrints.observe(printerID) { [weak self] print in self?.show(print) }
        ticker = RepeatingTimer(seconds: 60) { [weak self] in self?.refresh() }
    }

    /// The printer's state (nil: no status) and whether the tile's camera shows a picture now.
    func update(state: PrinterStatus.State?, live: Bool) {
        let idle = ![PrinterStatus.State.printing, .paused, .preparing].contains(state)
        guard idle != isIdle || live != isLive else { return }
        (isIdle, isLive) = (idle, live)
        refresh()
    }

    func dismantle() {
        observation = nil
        ticker = nil
    }

    var text: String? { Bool(gboolean: gtk_widget_get_visible(line)) ? String(cString: gtk_label_get_text(gcast(label))) : nil }

    var isPictureShown: Bool { picture.map { Bool(gboolean: gtk_widget_get_visible($0)) } ?? false }

    private func show(_ print: JournalPrint?) {
        self.print = print
        let file = print?.finalPicture
        if file != pictureFile, picture != nil {
            pictureFile = file
            texture = nil
            if let file { load(file) }
        }
        refresh()
    }

    /// Decodes `file` off the main loop (GTK's loaders are thread-safe) and shows it if it is still
    /// the picture wanted.
    private func load(_ file: URL) {
        DispatchQueue.global(qos: .utility).async {
            var error: UnsafeMutablePointer<GError>?
            let decoded = Decoded(texture: gdk_texture_new_from_filename(file.path, &error).map { GObjectRef(adopting: $0) })
            if error != nil {
                GLibLog.debug("journal: the final picture \(file.lastPathComponent) could not be read")
                g_clear_error(&error)
            }
            MainLoopExecutor.main.runOnMainActor { [weak self] in
                guard let self, pictureFile == file else { return }
                texture = decoded.texture
                refresh()
            }
        }
    }

    private func refresh() {
        if let picture {
            gtk_picture_set_paintable(gcast(picture), texture?.pointer)
            gtk_widget_set_visible(picture, (isIdle && !isLive && texture != nil && print != nil).gboolean)
        }
        guard isIdle, let print, let ended = print.ended else { return gtk_widget_set_visible(line, false.gboolean) }
        let ago = StatusText.ago(Date().timeIntervalSince(ended))
        let (result, iconName, tone): (String, String, String?) = switch print.result {
        case .failed: (String(format: tr("failed %@"), ago), "dialog-error-symbolic", "error")
        case .cancelled: (String(format: tr("cancelled %@"), ago), "process-stop-symbolic", nil)
        case .finished, .underway: (String(format: tr("finished %@"), ago), "emblem-ok-symbolic", "success")
        }
        let text = String(format: tr("Last print: %@ · %@"), print.job ?? tr("Unnamed job"), result)
        gtk_label_set_text(gcast(label), text)
        gtk_widget_set_tooltip_text(line, text)
        gtk_image_set_from_icon_name(gcast(icon), iconName)
        for name in ["success", "error"] { gtk_widget_remove_css_class(icon, name) }
        if let tone { gtk_widget_add_css_class(icon, tone) }
        gtk_widget_set_visible(line, true.gboolean)
    }

    /// A texture decoded on a worker, handed to the main loop.
    private struct Decoded: @unchecked Sendable {
        let texture: GObjectRef<OpaquePointer>?
    }
}
