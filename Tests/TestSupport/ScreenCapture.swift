import Foundation

/// Saves the X screen as a PNG when LAYERWATCH_SHOTS names a folder, so a test's screen can be looked
/// at (a UI change is not done until someone has seen it); without it, nothing.
public enum ScreenCapture {
    /// Writes `name`.png in LAYERWATCH_SHOTS (ImageMagick's `import -window root`).
    public static func saveIfAsked(as name: String) {
        guard let folder = ProcessInfo.processInfo.environment["LAYERWATCH_SHOTS"] else { return }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name + ".png").path
        guard let capture = try? Process.run(URL(fileURLWithPath: "/usr/bin/import"), arguments: ["-window", "root", path]) else { return }
        capture.waitUntilExit()
    }
}
