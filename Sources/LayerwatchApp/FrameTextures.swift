import CGtk
import GtkKit
import StreamKit

/// Turns decoded frames into GdkTextures without copying, one texture per frame however many views
/// show it: the texture's GBytes keeps the `VideoFrame` alive and lets it go when GTK drops the
/// texture, which returns the pixel memory to the session's pool.
@MainActor
final class FrameTextures {
    static let shared = FrameTextures()

    private var newest: [ObjectIdentifier: (frame: VideoFrame, texture: GObjectRef<OpaquePointer>)] = [:]

    /// The texture for `frame` of `session`, made once and reused by every view of that session.
    func texture(for frame: VideoFrame, of session: StreamSession) -> OpaquePointer {
        let key = ObjectIdentifier(session)
        if let cached = newest[key], cached.frame === frame { return cached.texture.pointer }
        let texture = GObjectRef(adopting: Self.wrap(frame))
        newest[key] = (frame, texture)
        return texture.pointer
    }

    /// Drops the cached texture of a session nobody shows any more.
    func forget(_ session: StreamSession) {
        newest[ObjectIdentifier(session)] = nil
    }

    /// A GdkMemoryTexture over the frame's own pixels (BGRA, premultiplied, alpha 255). Creating a
    /// texture is thread-safe, so the snapshot writer calls this off the main loop too.
    nonisolated static func wrap(_ frame: VideoFrame) -> OpaquePointer {
        let owner = Unmanaged.passRetained(frame).toOpaque()
        let bytes = g_bytes_new_with_free_func(frame.pixels, gsize(frame.byteCount), { owner in
            Unmanaged<VideoFrame>.fromOpaque(owner!).release()
        }, owner)
        defer { g_bytes_unref(bytes) }
        return texture(over: bytes!, shapedLike: frame)
    }

    /// A GdkMemoryTexture over `bytes` holding pixels laid out as `frame`'s are (the bench also
    /// wraps copies of frames, to measure what not copying saves).
    nonisolated static func texture(over bytes: OpaquePointer, shapedLike frame: VideoFrame) -> OpaquePointer {
        gdk_memory_texture_new(Int32(frame.width), Int32(frame.height),
                               GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, gsize(frame.stride))
    }
}
