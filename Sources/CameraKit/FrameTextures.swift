import CGtk
import GtkKit
import StreamKit

/// Turns decoded frames into GdkTextures without copying: the texture's GBytes keeps the
/// `VideoFrame` alive and lets it go when GTK drops the texture, which returns the pixel memory to
/// the session's pool. Every view of a session is handed the same frame, and `shared(for:)` gives
/// them one texture for it, hung weakly on the frame itself: it goes when the last view moves on.
public enum FrameTextures {
    /// The texture showing `frame`, made by the first view that shows it.
    @MainActor
    static func shared(for frame: VideoFrame) -> GObjectRef<OpaquePointer> {
        frame.sharedPresentation { GObjectRef(adopting: wrap(frame)) }
    }

    /// A new GdkMemoryTexture over the frame's own pixels (BGRA or RGBA, alpha 255), owned
    /// by the caller. Creating a texture is thread-safe, so the snapshot writer calls this off the
    /// main loop, and the benchmark measures the same call.
    public static func wrap(_ frame: VideoFrame) -> OpaquePointer {
        let owner = Unmanaged.passRetained(frame).toOpaque()
        let bytes = g_bytes_new_with_free_func(frame.pixels, gsize(frame.byteCount), { owner in
            Unmanaged<VideoFrame>.fromOpaque(owner!).release()
        }, owner)
        defer { g_bytes_unref(bytes) }
        return texture(over: bytes!, shapedLike: frame)
    }

    /// A GdkMemoryTexture over `bytes` holding pixels laid out as `frame`'s are (the benchmark also
    /// wraps copies of frames, to measure what not copying saves).
    public static func texture(over bytes: OpaquePointer, shapedLike frame: VideoFrame) -> OpaquePointer {
        gdk_memory_texture_new(Int32(frame.width), Int32(frame.height), memoryFormat(of: frame.order), bytes, gsize(frame.stride))
    }

    /// GDK's name for pixels in `order` (alpha 255, so premultiplied is exact).
    public static func memoryFormat(of order: PixelOrder) -> GdkMemoryFormat {
        order == .rgba ? GDK_MEMORY_R8G8B8A8_PREMULTIPLIED : GDK_MEMORY_B8G8R8A8_PREMULTIPLIED
    }
}
