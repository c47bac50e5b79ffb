import Foundation

/// GTK 4.8 draws with OpenGL whenever it can make a context, and on a computer without a GPU (a
/// virtual machine, a headless box) that is Mesa's software rasteriser: at 1080p30 it took 90 CPU
/// s/min and showed 18 frames a second where the cairo renderer took 9.7 and showed all 30
/// (bench/SCREEN.md). So with no GPU render node and no renderer chosen by the user, Layerwatch
/// asks GTK for cairo, before GTK starts.
enum SoftwareGL {
    /// The renderer to ask for (`GSK_RENDERER`), or nil to leave GTK's choice: cairo when the user
    /// chose none and no render node (`/dev/dri/renderD*`) exists.
    static func preferredRenderer(userChoice: String?, deviceNodes: [String]) -> String? {
        guard userChoice?.isEmpty ?? true else { return nil }
        return deviceNodes.contains { $0.hasPrefix("renderD") } ? nil : "cairo"
    }

    /// Sets `GSK_RENDERER` for this process as `preferredRenderer` says.
    static func chooseRenderer() {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        guard let renderer = preferredRenderer(userChoice: ProcessInfo.processInfo.environment["GSK_RENDERER"],
                                               deviceNodes: nodes) else { return }
        setenv("GSK_RENDERER", renderer, 1)
    }
}
