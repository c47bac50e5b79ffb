import CGtk
import StreamKit

/// A cairo image surface over a decoded frame's own pixels (BGRA premultiplied with alpha 255 is
/// cairo's ARGB32 on little-endian machines), for views drawn by the cairo renderer. The surface
/// keeps the frame alive, and with it the pooled memory, until cairo lets the surface go: a recording
/// of it may outlive this wrapper. Like textures, one is shared by every view showing the frame.
final class FrameSurface {
    let surface: OpaquePointer
    private static var frameKey = cairo_user_data_key_t()

    /// The surface showing `frame`, made by the first view that shows it.
    @MainActor
    static func shared(for frame: VideoFrame) -> FrameSurface {
        frame.sharedPresentation { FrameSurface(frame) }
    }

    private init(_ frame: VideoFrame) {
        surface = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: frame.pixels.assumingMemoryBound(to: UInt8.self)),
                                                      CAIRO_FORMAT_ARGB32, Int32(frame.width), Int32(frame.height), Int32(frame.stride))
        let owner = Unmanaged.passRetained(frame).toOpaque()
        cairo_surface_set_user_data(surface, &Self.frameKey, owner) { owner in
            Unmanaged<VideoFrame>.fromOpaque(owner!).release()
        }
    }

    deinit {
        cairo_surface_destroy(surface)
    }
}
