import CGtk
import Foundation
import GtkKit
import StreamKit

/// Shows how far a view is zoomed and where it looks: a small map of the picture with the part in
/// view marked, and the scale ("2×"); hidden while the picture is fitted. It is a button: clicking
/// it fits the picture again.
@MainActor
final class ZoomIndicator {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let map = gtk_drawing_area_new()!
    private let label = makeLabel(classes: ["zoom-level"])
    private var zoom = PictureZoom.fitted
    /// The map's longer side, in pixels.
    private static let mapSize = 56.0

    init(onFit: @escaping @MainActor () -> Void) {
        widget = gtk_button_new()
        gtk_widget_add_css_class(widget, "zoom-indicator")
        gtk_widget_add_css_class(widget, "osd")
        gtk_widget_set_tooltip_text(widget, tr("Fit the Picture (0)"))
        setAccessibleLabel(widget, tr("Fit the Picture"))
        gtk_widget_set_visible(widget, false.gboolean)
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_append(gcast(row), map)
        gtk_box_append(gcast(row), label)
        gtk_button_set_child(gcast(widget), row)
        setDrawFunction(map) { [weak self] cairo, width, height in
            self?.draw(cairo, width: Double(width), height: Double(height))
        }
        connectSignal(widget, "clicked") { onFit() }
    }

    /// Shows `zoom` of a picture `aspectRatio` wide for each unit of height (upright).
    func show(_ zoom: PictureZoom, aspectRatio: Double) {
        self.zoom = zoom
        gtk_widget_set_visible(widget, (!zoom.isFitted).gboolean)
        gtk_label_set_text(gcast(label), zoom.label)
        let ratio = aspectRatio > 0 && aspectRatio.isFinite ? aspectRatio : 16.0 / 9
        let (width, height) = ratio >= 1 ? (Self.mapSize, Self.mapSize / ratio) : (Self.mapSize * ratio, Self.mapSize)
        gtk_widget_set_size_request(map, Int32(width.rounded()), Int32(height.rounded()))
        gtk_widget_queue_draw(map)
    }

    /// The text it shows while shown (for tests).
    var text: String? {
        Bool(gboolean: gtk_widget_get_visible(widget)) ? String(cString: gtk_label_get_text(gcast(label))) : nil
    }

    /// The picture's outline and, filled, the part in view.
    private func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        cairo_set_line_width(cairo, 1)
        cairo_set_source_rgba(cairo, 1, 1, 1, 0.7)
        cairo_rectangle(cairo, 0.5, 0.5, width - 1, height - 1)
        cairo_stroke(cairo)
        let visible = zoom.visible
        cairo_set_source_rgba(cairo, 1, 1, 1, 0.85)
        cairo_rectangle(cairo, visible.x * width, visible.y * height, max(2, visible.width * width), max(2, visible.height * height))
        cairo_fill(cairo)
    }
}
