import Foundation
import StreamKit

/// Finds Layerwatch's data files (the demo clip, the stylesheet, the shortcuts window) whether it runs installed (`PREFIX/bin/layerwatch`
/// with data in `PREFIX/share/layerwatch`) or from the source tree (`.build/debug/layerwatch`, data
/// in `data/`). `LAYERWATCH_DATA_DIR` overrides both.
public enum DataFiles {
    public static let demoClipName = "demo-printer.mp4"

    /// The demo camera's clip, if it can be found.
    public static func demoClip() -> URL? {
        file(demoClipName)
    }

    /// A file shipped in data/ (the stylesheet, the shortcuts window), if it can be found.
    static func file(_ name: String) -> URL? {
        candidates().map { $0.appendingPathComponent(name) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The folder holding `hicolor/…/io.github.layerwatch.Layerwatch.svg`: `data/icons` in the source
    /// tree, `PREFIX/share/icons` when installed.
    public static func iconFolder() -> URL? {
        let icon = "hicolor/scalable/apps/io.github.layerwatch.Layerwatch.svg"
        let installed = Installation.shareFolder.appendingPathComponent("icons")
        return (candidates().map { $0.appendingPathComponent("icons") } + [installed])
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(icon).path) }
    }

    static func candidates() -> [URL] {
        var folders: [URL] = []
        if let override = ProcessInfo.processInfo.environment["LAYERWATCH_DATA_DIR"] {
            folders.append(URL(fileURLWithPath: override))
        }
        folders.append(Installation.shareFolder.appendingPathComponent("layerwatch"))
        var folder = Installation.executableFolder
        for _ in 0..<5 {
            folders.append(folder.appendingPathComponent("data"))
            folder = folder.deletingLastPathComponent()
        }
        return folders
    }
}
