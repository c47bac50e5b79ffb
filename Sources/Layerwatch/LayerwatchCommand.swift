import ArgumentParser
import LayerwatchApp

/// The `layerwatch` command line: the viewer by default, `probe` for diagnosing a camera.
@main
struct LayerwatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layerwatch",
        abstract: "A viewer for 3D-printer cameras (Bambu Lab RTSPS, RTSP, HTTP MJPEG, files).",
        version: LayerwatchApplication.version,
        subcommands: [ViewCommand.self, ProbeCommand.self],
        defaultSubcommand: ViewCommand.self
    )
}
