import Foundation

/// GTK 4.8 draws with OpenGL whenever it can make a context, and on a computer without a GPU (a
/// virtual machine, a headless box) that is Mesa's software rasteriser: at 1080p30 it took 90 CPU
/// s/min and showed 18 frames a second where the cairo renderer took 9.7 and showed all 30
/// (bench/SCREEN.md). So with no GPU render node and no renderer chosen by the user, Layerwatch
/// asks GTK for cairo, before GTK starts. Drawing with cairo, GDK still loads the OpenGL driver
/// when it opens the display, to choose its visuals: Mesa's software rasteriser with LLVM, 58 MiB
/// of resident memory that nothing uses (bench/BACKGROUND.md), so GDK's OpenGL is then turned off.
enum SoftwareGL {
    /// The renderer to ask for (`GSK_RENDERER`), or nil to leave GTK's choice: cairo when the user
    /// chose none and no render node (`/dev/dri/renderD*`) exists.
    static func preferredRenderer(userChoice: String?, deviceNodes: [String]) -> String? {
        guard userChoice?.isEmpty ?? true else { return nil }
        return deviceNodes.contains { $0.hasPrefix("renderD") } ? nil : "cairo"
    }

    /// The `GDK_DEBUG` flags to run with, or nil to leave them: `gl-disable` added to the user's
    /// when GTK draws with `renderer` cairo, unless the user's flags already say something of GL.
    static func debugFlags(renderer: String?, userFlags: String?) -> String? {
        let flags = userFlags ?? ""
        guard renderer == "cairo", !flags.contains("gl") else { return nil }
        return flags.isEmpty ? "gl-disable" : flags + ",gl-disable"
    }

    /// Sets `GSK_RENDERER` and `GDK_DEBUG` for this process as `preferredRenderer` and `debugFlags` say.
    static func chooseRenderer() {
        let environment = ProcessInfo.processInfo.environment
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        let chosen = preferredRenderer(userChoice: environment["GSK_RENDERER"], deviceNodes: nodes)
        if let chosen { setenv("GSK_RENDERER", chosen, 1) }
        if let flags = debugFlags(renderer: chosen ?? environment["GSK_RENDERER"], userFlags: environment["GDK_DEBUG"]) {
            setenv("GDK_DEBUG", flags, 1)
        }
    }
}
