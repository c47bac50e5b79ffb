import Foundation

/// Finds Layerwatch's data files (the demo clip) whether it runs installed (`PREFIX/bin/layerwatch`
/// with data in `PREFIX/share/layerwatch`) or from the source tree (`.build/debug/layerwatch`, data
/// in `data/`). `LAYERWATCH_DATA_DIR` overrides both.
public enum DataFiles {
    public static let demoClipName = "demo-printer.mp4"

    /// The demo camera's clip, if it can be found.
    public static func demoClip() -> URL? {
        candidates().map { $0.appendingPathComponent(demoClipName) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    static func candidates() -> [URL] {
        var folders: [URL] = []
        if let override = ProcessInfo.processInfo.environment["LAYERWATCH_DATA_DIR"] {
            folders.append(URL(fileURLWithPath: override))
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let binFolder = executable.deletingLastPathComponent()
        folders.append(binFolder.deletingLastPathComponent().appendingPathComponent("share/layerwatch"))
        var folder = binFolder
        for _ in 0..<5 {
            folders.append(folder.appendingPathComponent("data"))
            folder = folder.deletingLastPathComponent()
        }
        return folders
    }
}
