import CGtk
import Foundation
import GtkKit

/// One of a print's pictures as read from disk for its History page: decoded (GTK's JPEG loader,
/// which is thread-safe, so it runs off the main loop), gone (retention deleted it), unreadable, or
/// none kept (never taken, or forgotten by retention). A GdkTexture is immutable, so the decoded one may cross to the main loop.
enum PrintPicture: @unchecked Sendable {
    case decoded(GObjectRef<OpaquePointer>, file: URL)
    case gone
    case unreadable
    case notKept

    /// Reads and decodes `file`; call it off the main loop.
    static func load(_ file: URL?) -> PrintPicture {
        guard let file else { return .notKept }
        guard FileManager.default.fileExists(atPath: file.path) else { return .gone }
        let gfile = GObjectRef(adopting: g_file_new_for_path(file.path)!)
        var error: UnsafeMutablePointer<GError>?
        guard let texture = gdk_texture_new_from_file(gfile.pointer, &error) else {
            g_clear_error(&error)
            return .unreadable
        }
        return .decoded(GObjectRef(adopting: texture), file: file)
    }
}
