import CGtk
import Foundation
import GtkKit
import JournalKit
import StreamKit

/// One row of the History page's list, made once per list item and shown again for each print it
/// is bound to: its day's heading when it is the first print of its day (GTK 4.8's list view has
/// no sections, so the heading is part of the row), the final picture's thumbnail (a placeholder
/// icon while it loads or when there is none), the job, its result in its colour, and the
/// printer, start time and duration.
@MainActor
final class HistoryRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let heading: UnsafeMutablePointer<GtkWidget>
    let picture: UnsafeMutablePointer<GtkWidget>
    private let placeholder: UnsafeMutablePointer<GtkWidget>
    let job: UnsafeMutablePointer<GtkWidget>
    let result: UnsafeMutablePointer<GtkWidget>
    let details: UnsafeMutablePointer<GtkWidget>
    /// The print shown, and the wait for its thumbnail.
    private(set) var print: JournalPrint?
    /// Its place in the list.
    private(set) var position = 0
    private var wait: UUID?
    private var resultClass: String?

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        heading = makeLabel(classes: ["title-4"], leading: true)
        gtk_widget_set_margin_top(heading, 12)
        let line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        let frame = gtk_overlay_new()!
        gtk_widget_set_size_request(frame, 96, 72)
        gtk_widget_add_css_class(frame, "card")
        gtk_widget_set_overflow(frame, GTK_OVERFLOW_HIDDEN)
        placeholder = gtk_image_new_from_icon_name("image-x-generic-symbolic")
        gtk_widget_add_css_class(placeholder, "dim-label")
        gtk_image_set_pixel_size(gcast(placeholder), 32)
        gtk_overlay_set_child(gcast(frame), placeholder)
        picture = gtk_picture_new()
        gtk_picture_set_can_shrink(gcast(picture), true.gboolean)
        gtk_picture_set_content_fit(gcast(picture), GTK_CONTENT_FIT_COVER)
        gtk_overlay_add_overlay(gcast(frame), picture)
        let words = gtk_box_new(GTK_ORIENTATION_VERTICAL, 3)!
        gtk_widget_set_valign(words, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(words, true.gboolean)
        job = makeLabel(classes: ["heading"], leading: true)
        result = makeLabel(leading: true)
        details = makeLabel(classes: ["dim-label"], leading: true)
        for label in [job, result, details] {
            gtk_label_set_ellipsize(gcast(label), PANGO_ELLIPSIZE_END)
            gtk_box_append(gcast(words), label)
        }
        gtk_box_append(gcast(line), frame)
        gtk_box_append(gcast(line), words)
        gtk_box_append(gcast(widget), heading)
        gtk_box_append(gcast(widget), line)
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(widget, 12) }
        gtk_widget_set_margin_top(widget, 6)
        gtk_widget_set_margin_bottom(widget, 6)
    }

    /// Shows `print`, the list's `position`th, under the heading `day` when it is the first print of its day, its thumbnail
    /// from `thumbnails` (loaded now if need be).
    func show(_ print: JournalPrint, at position: Int, day: String?, thumbnails: HistoryThumbnails) {
        self.print = print
        self.position = position
        gtk_label_set_text(gcast(heading), day ?? "")
        gtk_widget_set_visible(heading, (day != nil).gboolean)
        gtk_label_set_text(gcast(job), print.job ?? tr("Unnamed print"))
        gtk_label_set_text(gcast(result), HistoryText.result(of: print))
        gtk_widget_set_tooltip_text(result, print.result == .failed ? print.error : nil)
        if let resultClass { gtk_widget_remove_css_class(result, resultClass) }
        resultClass = HistoryText.styleClass(of: print.result)
        gtk_widget_add_css_class(result, resultClass)
        gtk_label_set_text(gcast(details), HistoryText.details(of: print))
        forget(thumbnails)
        guard let path = print.finalPicture?.path else { return setPicture(nil) }
        if let texture = thumbnails.texture(of: path) { return setPicture(texture) }
        setPicture(nil)
        wait = thumbnails.load(path) { [weak self] texture in
            self?.wait = nil
            self?.setPicture(texture)
        }
    }

    /// Stops waiting for a thumbnail (the row is bound to another print, or to none).
    func forget(_ thumbnails: HistoryThumbnails) {
        if let wait { thumbnails.cancel(wait) }
        wait = nil
    }

    private func setPicture(_ texture: OpaquePointer?) {
        gtk_picture_set_paintable(gcast(picture), texture)
        gtk_widget_set_visible(picture, (texture != nil).gboolean)
        gtk_widget_set_visible(placeholder, (texture == nil).gboolean)
    }
}
