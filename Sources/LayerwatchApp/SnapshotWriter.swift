import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// Saves a frame as a PNG in the user's Pictures folder (XDG), under Layerwatch/, named after the
/// printer and the time. Encoding a 1080p PNG takes a moment, so it runs off the main loop
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

    /// `$XDG_PICTURES_DIR/Layerwatch`, or `$HOME/Pictures/Layerwatch` when XDG names no Pictures
    /// folder: the home the config follows too (`UserHome`), not the password database's.
    static func directory(pictures: String? = g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map { String(cString: $0) },
                          environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let folder = pictures ?? (UserHome.path(environment: environment) as NSString).appendingPathComponent("Pictures")
        return URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent("Layerwatch", isDirectory: true)
    }

    /// "Printer name 2026-11-22 16.30.05.png", with characters that don't belong in a file name replaced.
    /// The printer's part is cut to `maximumNameBytes`, so a long name still gives a file name the
    /// file system takes (255 bytes), with room for the time and a " (2)".
    static func fileName(printer: String, at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH.mm.ss"
        let unsafe = { (character: Character) in
            "/\\:*?\"<>|".contains(character) || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        var safe = String(printer.map { unsafe($0) ? "-" : $0 })
            .trimmingCharacters(in: .whitespaces)
        while safe.utf8.count > maximumNameBytes { safe.removeLast() }
        return "\(safe) \(formatter.string(from: date)).png"
    }

    static let maximumNameBytes = 160

    /// Writes `frame` for `printer`, upright for a camera mounted as `orientation` says; `completion`
    /// runs on the main loop with the file written.
    static func save(_ frame: VideoFrame, printer: String, orientation: PictureOrientation = .upright, into folder: URL = directory(),
                     at date: Date = Date(), completion: @escaping @MainActor (Result<URL, Failure>) -> Void) {
        let name = fileName(printer: printer, at: date)
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
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = uniqueURL(in: folder, name: name)
            try Data(bytes: data, count: Int(size)).write(to: url, options: .withoutOverwriting)
            return .success(url)
        } catch {
            return .failure(.writeFailed(error.localizedDescription))
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

    /// `name`, or "name (2).png" and so on when a file of that name exists: never overwrite.
    private static func uniqueURL(in folder: URL, name: String) -> URL {
        var url = folder.appendingPathComponent(name)
        let stem = (name as NSString).deletingPathExtension
        var counter = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = folder.appendingPathComponent("\(stem) (\(counter)).png")
            counter += 1
        }
        return url
    }
}
