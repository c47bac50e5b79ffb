import CGtk
import CameraKit
import Foundation
import GtkKit
import StatusKit
import StreamKit

/// What stands where the video would be for a printer watched without a picture (a Klipper or
/// OctoPrint printer with no camera), in its tab (`.full`) and its farm tile (`.tile`): a calm
/// placeholder, the printer icon and "No camera" — the job's thumbnail in the icon's place when the
/// printer serves one. Its owner lays the status strip along the bottom (`addBottomOverlay`, below
/// the placeholder, covering nothing) and toasts above it, as over a camera surface. A thumbnail
/// whose bytes are no picture (or declare a huge one) is not shown: the icon stays.
@MainActor
final class NoCameraArea {
    /// The widget to embed.
    let widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    private let overlay = gtk_overlay_new()!
    private let icon = gtk_image_new_from_icon_name("printer-symbolic")!
    private let picture = gtk_picture_new()!
    /// The icon, the words, and what the owner adds below them.
    private let content: UnsafeMutablePointer<GtkWidget>
    /// The strip's place, below the placeholder.
    private let bottom = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    private var observation: PrinterStatusHub.Observation?
    /// The thumbnail shown (decoded), to decode only when it changes.
    private var shown: JobThumbnail?
    private var texture: GObjectRef<OpaquePointer>?

    init(style: CameraSurface.Style) {
        let full = style == .full
        gtk_widget_add_css_class(widget, "no-camera")
        gtk_widget_set_vexpand(overlay, true.gboolean)
        content = gtk_box_new(GTK_ORIENTATION_VERTICAL, full ? 12 : 4)!
        gtk_widget_set_valign(content, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(content, GTK_ALIGN_CENTER)
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(content, full ? 24 : 8)
        }
        gtk_image_set_pixel_size(gcast(icon), full ? 96 : 48)
        gtk_widget_add_css_class(icon, "no-camera-icon")
        gtk_picture_set_content_fit(gcast(picture), GTK_CONTENT_FIT_CONTAIN)
        gtk_picture_set_alternative_text(gcast(picture), tr("The job's thumbnail"))
        gtk_widget_set_visible(picture, false.gboolean)
        if !full { gtk_widget_set_vexpand(picture, true.gboolean) }
        gtk_box_append(gcast(content), picture)
        gtk_box_append(gcast(content), icon)
        gtk_box_append(gcast(content), makeLabel(tr("No camera"), classes: [full ? "title-2" : "heading"]))
        if full {
            let description = makeLabel(tr("This printer is watched without a picture."), classes: ["dim-label"], wraps: true)
            gtk_label_set_justify(gcast(description), GTK_JUSTIFY_CENTER)
            gtk_box_append(gcast(content), description)
        }
        gtk_overlay_set_child(gcast(overlay), content)
        gtk_box_append(gcast(widget), overlay)
        gtk_box_append(gcast(widget), bottom)
    }

    /// Shows printer `printerID`'s job thumbnail from `hub` from now on.
    func follow(_ printerID: UUID, in hub: PrinterStatusHub) {
        observation = hub.observe(printerID: printerID) { [weak self] update in
            self?.show(update?.status?.thumbnail)
        }
    }

    /// Stops following the printer (its tab or tile is going).
    func dismantle() {
        observation = nil
    }

    /// Lays the owner's `control` (its status strip) below the placeholder.
    func addBottomOverlay(_ control: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(gcast(bottom), control)
    }

    /// Adds `widget` (an idle printer's last print) below the placeholder's words.
    func addBelowPlaceholder(_ widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(gcast(content), widget)
    }

    /// Lays `control` (a page's toasts) over the placeholder's bottom edge, above the strip.
    func addAboveBottomOverlays(_ control: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_set_valign(control, GTK_ALIGN_END)
        gtk_overlay_add_overlay(gcast(overlay), control)
    }

    /// The thumbnail's size as decoded while it is shown; nil while the icon shows.
    var thumbnailSize: (width: Int, height: Int)? {
        texture.map { (Int(gdk_texture_get_width($0.pointer)), Int(gdk_texture_get_height($0.pointer))) }
    }

    var isIconShown: Bool { Bool(gboolean: gtk_widget_get_visible(icon)) }

    /// Shows `thumbnail` in the icon's place, or the icon when there is none or it is no picture.
    func show(_ thumbnail: JobThumbnail?) {
        guard thumbnail != shown else { return }
        shown = thumbnail
        texture = thumbnail.flatMap(Self.texture)
        gtk_picture_set_paintable(gcast(picture), texture?.pointer)
        gtk_widget_set_visible(picture, (texture != nil).gboolean)
        gtk_widget_set_visible(icon, (texture == nil).gboolean)
    }

    /// The thumbnail decoded (GTK's PNG and JPEG loaders, gdk-pixbuf's for the rest) when its header
    /// declares a plausible size; nil for bytes that are no picture.
    private static func texture(of thumbnail: JobThumbnail) -> GObjectRef<OpaquePointer>? {
        guard thumbnail.pictureSize != nil else { return nil }
        return decodedTexture(thumbnail.image)
    }
}
