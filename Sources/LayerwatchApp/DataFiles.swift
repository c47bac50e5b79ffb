import Foundation

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
        let installed = executableFolder.deletingLastPathComponent().appendingPathComponent("share/icons")
        return (candidates().map { $0.appendingPathComponent("icons") } + [installed])
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(icon).path) }
    }

    private static var executableFolder: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static func candidates() -> [URL] {
        var folders: [URL] = []
        if let override = ProcessInfo.processInfo.environment["LAYERWATCH_DATA_DIR"] {
            folders.append(URL(fileURLWithPath: override))
        }
        let binFolder = executableFolder
        folders.append(binFolder.deletingLastPathComponent().appendingPathComponent("share/layerwatch"))
        var folder = binFolder
        for _ in 0..<5 {
            folders.append(folder.appendingPathComponent("data"))
            folder = folder.deletingLastPathComponent()
        }
        return folders
    }
}

extension DataFiles {
    /// The folder of compiled translations (`de/LC_MESSAGES/layerwatch.mo`): `PREFIX/share/locale`
    /// next to the installed binary. `LAYERWATCH_LOCALE_DIR` overrides it (tests, uninstalled runs).
    public static func localeFolder() -> URL {
        if let override = ProcessInfo.processInfo.environment["LAYERWATCH_LOCALE_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return executableFolder.deletingLastPathComponent().appendingPathComponent("share/locale")
    }
}
