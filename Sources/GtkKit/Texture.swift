import CGtk
import Foundation

/// `data` (PNG or JPEG bytes; gdk-pixbuf's loaders for the rest) decoded into a texture; nil for
/// bytes that are no picture.
@MainActor
public func decodedTexture(_ data: Data) -> GObjectRef<OpaquePointer>? {
    let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count))! }
    defer { g_bytes_unref(bytes) }
    var error: UnsafeMutablePointer<GError>?
    guard let texture = gdk_texture_new_from_bytes(bytes, &error) else {
        g_clear_error(&error)
        return nil
    }
    return GObjectRef(adopting: texture)
}
