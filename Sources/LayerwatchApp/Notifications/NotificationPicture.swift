import CGtk
import GtkKit
import StreamKit

/// The picture a print notification shows as its icon: a camera frame scaled down to at most
/// `maximumSide` pixels a side (cairo's good filter) and encoded as PNG. Thread-safe (cairo, a
/// GdkMemoryTexture and its PNG encoder), so the notifier makes it off the main loop.
enum NotificationPicture {
    static let maximumSide = 256

    /// `frame` as a PNG no larger than `maximumSide`; nil when it could not be encoded.
    static func png(of frame: VideoFrame) -> [UInt8]? {
        let scale = min(1, Double(maximumSide) / Double(max(frame.width, frame.height)))
        let width = max(1, Int((Double(frame.width) * scale).rounded()))
        let height = max(1, Int((Double(frame.height) * scale).rounded()))
        let small = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        defer { cairo_surface_destroy(small) }
        withExtendedLifetime(frame) {
            // The frame's bytes are drawn as they are: scaling treats the four channels alike, so
            // an RGBA frame stays RGBA and the texture below is told which order it is.
            let source = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: frame.pixels.assumingMemoryBound(to: UInt8.self)),
                                                             CAIRO_FORMAT_ARGB32, Int32(frame.width), Int32(frame.height), Int32(frame.stride))
            defer { cairo_surface_destroy(source) }
            let cairo = cairo_create(small)
            defer { cairo_destroy(cairo) }
            cairo_scale(cairo, Double(width) / Double(frame.width), Double(height) / Double(frame.height))
            cairo_set_source_surface(cairo, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
            cairo_paint(cairo)
        }
        cairo_surface_flush(small)
        guard cairo_surface_status(small) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(small) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(small))
        let bytes = g_bytes_new(pixels, gsize(stride * height))
        defer { g_bytes_unref(bytes) }
        let format = frame.order == .rgba ? GDK_MEMORY_R8G8B8A8_PREMULTIPLIED : GDK_MEMORY_B8G8R8A8_PREMULTIPLIED
        let texture = GObjectRef(adopting: gdk_memory_texture_new(Int32(width), Int32(height), format, bytes, gsize(stride))!)
        guard let png = gdk_texture_save_to_png_bytes(texture.pointer) else { return nil }
        defer { g_bytes_unref(png) }
        var size: gsize = 0
        guard let start = g_bytes_get_data(png, &size) else { return nil }
        return Array(UnsafeRawBufferPointer(start: start, count: Int(size)))
    }
}
