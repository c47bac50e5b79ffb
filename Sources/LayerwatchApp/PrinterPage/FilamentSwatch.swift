import CGtk
import Foundation
import GtkKit
import StatusKit

/// One filament slot drawn as a colour dot: the filament's colour (`RRGGBBAA`) with a thin outline
/// so black or clear filament shows on any background, a ring around the slot feeding now, a hollow
/// circle for an empty tray and a faint dot for a colour the printer did not say. Always the same
/// size, so the row does not move as trays change.
@MainActor
final class FilamentSwatch {
    static let size: Int32 = 18
    let widget = gtk_drawing_area_new()!
    var slot: FilamentSlot? {
        didSet { if slot != oldValue { gtk_widget_queue_draw(widget) } }
    }

    init(_ slot: FilamentSlot? = nil) {
        self.slot = slot
        gtk_drawing_area_set_content_width(gcast(widget), Self.size)
        gtk_drawing_area_set_content_height(gcast(widget), Self.size)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(widget, "filament-swatch")
        setDrawFunction(widget) { [weak self] cairo, width, height in self?.draw(cairo, width: width, height: height) }
    }

    /// The fill of `color` (`RRGGBBAA`, as `FilamentSlot` keeps it), read by GDK; nil for anything
    /// else (GDK would also take `RGB` or a colour name), and the swatch shows the faint dot of an
    /// unknown colour.
    nonisolated static func fill(_ color: String) -> GdkRGBA? {
        var rgba = GdkRGBA()
        return color.utf8.count == 8 && gdk_rgba_parse(&rgba, "#" + color) != 0 ? rgba : nil
    }

    private func draw(_ cairo: OpaquePointer, width: Int32, height: Int32) {
        guard let slot else { return }
        var foreground = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &foreground)
        let (x, y) = (Double(width) / 2, Double(height) / 2)
        let radius = Double(min(width, height)) / 2 - 3
        cairo_arc(cairo, x, y, radius, 0, 2 * .pi)
        if !slot.isEmpty {
            var fill = slot.color.flatMap(Self.fill) ?? GdkRGBA(red: foreground.red, green: foreground.green, blue: foreground.blue, alpha: 0.25)
            gdk_cairo_set_source_rgba(cairo, &fill)
            cairo_fill_preserve(cairo)
        }
        cairo_set_source_rgba(cairo, Double(foreground.red), Double(foreground.green), Double(foreground.blue), slot.isEmpty ? 0.6 : 0.35)
        cairo_set_line_width(cairo, 1)
        cairo_stroke(cairo)
        if slot.isActive {
            cairo_arc(cairo, x, y, radius + 2, 0, 2 * .pi)
            cairo_set_source_rgba(cairo, Double(foreground.red), Double(foreground.green), Double(foreground.blue), 1)
            cairo_set_line_width(cairo, 2)
            cairo_stroke(cairo)
        }
    }
}
