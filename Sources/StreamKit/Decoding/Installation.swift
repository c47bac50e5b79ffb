import Foundation

/// Which Layerwatch this is and where it runs from: what `--version`, the About window and the
/// lookups of data files and translations need, kept below every module that shows them so the
/// command line's headless commands need nothing of the app.
public enum Installation {
    /// The version `--version` and the About window show (meson.build and the metainfo say the same).
    public static let version = "0.1.0"

    /// The folder of the running binary: `PREFIX/bin` when installed (its data in `PREFIX/share`),
    /// `.build/debug` in the source tree.
    public static var executableFolder: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// `PREFIX/share` beside `PREFIX/bin`: the installed data, icons and translations.
    public static var shareFolder: URL {
        executableFolder.deletingLastPathComponent().appendingPathComponent("share")
    }
}
