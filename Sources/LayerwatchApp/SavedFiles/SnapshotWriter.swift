import CGtk
import CameraKit
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// Saves a frame as a PNG in the user's Pictures folder (XDG), under Layerwatch/, named after the
/// printer and the time (`SavedFiles`). Encoding a 1080p PNG takes a moment, so it runs off the main loop
/// (`gdk_texture_save_to_png_bytes` is thread-safe) and reports back on it.
enum SnapshotWriter {
    /// Why no snapshot was written, in words for a toast.
    enum Failure: Error, CustomStringConvertible {
        case noPicture
        case encodeFailed
        case writeFailed(String)

        var description: String {
            switch self {
            case .noPicture: return tr("There is no picture to save yet.")
            case .encodeFailed: return tr("The picture could not be encoded as PNG.")
            case .writeFailed(let reason): return String(format: tr("The snapshot could not be saved: %@"), reason)
            }
        }
    }

    /// Writes `frame` for `printer`, upright for a camera mounted as `orientation` says; `completion`
    /// runs on the main loop with the file written.
    static func save(_ frame: VideoFrame, printer: String, orientation: PictureOrientation = .upright,
                     into folder: URL = SavedFiles.folder(.pictures),
                     at date: Date = Date(), completion: @escaping @MainActor (Result<URL, Failure>) -> Void) {
        let name = SavedFiles.name(printer: printer, at: date, extension: "png")
        DispatchQueue.global(qos: .userInitiated).async {
            let result = write(frame, orientation: orientation, to: folder, name: name)
            MainLoopExecutor.main.runOnMainActor { completion(result) }
        }
    }

    private static func write(_ frame: VideoFrame, orientation: PictureOrientation, to folder: URL, name: String) -> Result<URL, Failure> {
        let texture = GObjectRef(adopting: orientation == .upright ? FrameTextures.wrap(frame) : uprightTexture(of: frame, orientation))
        guard let bytes = gdk_texture_save_to_png_bytes(texture.pointer) else { return .failure(.encodeFailed) }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return .failure(.encodeFailed) }
        var file: ExclusiveFile?
        do throws(ExclusiveFile.Failure) {
            try ExclusiveFile.makeFolder(folder)
            let made = try ExclusiveFile.create(freeNameLike: folder.appendingPathComponent(name))
            file = made
            try made.write(UnsafeRawBufferPointer(start: data, count: Int(size)))
            try made.close()
            return .success(made.url)
        } catch {
            file?.discard()
            return .failure(.writeFailed(error.description))
        }
    }

    /// A new texture of the frame turned and flipped upright (a copy: the frame stays as decoded).
    private static func uprightTexture(of frame: VideoFrame, _ orientation: PictureOrientation) -> OpaquePointer {
        let turned = orientation.upright(frame.pixels, width: frame.width, height: frame.height, stride: frame.stride)
        let bytes = turned.bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count))! }
        defer { g_bytes_unref(bytes) }
        return gdk_memory_texture_new(Int32(turned.width), Int32(turned.height), FrameTextures.memoryFormat(of: frame.order),
                                      bytes, gsize(turned.width * 4))
    }
}
