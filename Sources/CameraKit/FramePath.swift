import CGtk
import GtkKit
import StreamKit

/// How a view hands frames to the renderer GTK picked for its window, so that GTK 4.8 converts no
/// pixel on the way. The cairo renderer draws a memory texture by converting every pixel to float
/// and back (`gdk_memory_convert`, about half the app's CPU at 1080p30), but paints a cairo image
/// surface over the same memory as it is. The GL renderer uploads a BGRA texture as it is on desktop
/// OpenGL; on OpenGL ES only RGBA goes up unconverted.
enum FramePath: Equatable {
    /// `FrameSurface` through a cairo node.
    case cairoSurface
    /// `FrameTextures` in the given order (GL, and renderers not known here: newer GTKs upload
    /// textures of either order without converting).
    case texture(PixelOrder)

    /// The order frames should be converted to for this path.
    var order: PixelOrder {
        if case .texture(let order) = self { return order }
        return .bgra
    }

    /// The path for the renderer of `widget`'s window; BGRA textures while it has none.
    @MainActor
    static func of(_ widget: UnsafeMutablePointer<GtkWidget>) -> FramePath {
        guard let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else {
            return .texture(.bgra)
        }
        let instance = UnsafeMutableRawPointer(renderer).assumingMemoryBound(to: GTypeInstance.self)
        if Bool(gboolean: g_type_check_instance_is_a(instance, gsk_cairo_renderer_get_type())) { return .cairoSurface }
        // The GL renderer keeps its context current on the main thread once it has drawn.
        if let context = gdk_gl_context_get_current(), Bool(gboolean: gdk_gl_context_get_use_es(context)) {
            return .texture(.rgba)
        }
        return .texture(.bgra)
    }
}
