import ArgumentParser

/// The `layerwatch` command line: the viewer by default, `probe` for diagnosing a camera.
@main
struct LayerwatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layerwatch",
        abstract: "A viewer for 3D-printer cameras (Bambu Lab RTSPS, RTSP, HTTP MJPEG, files).",
        version: LayerwatchVersion.current,
        subcommands: [ViewCommand.self, ProbeCommand.self],
        defaultSubcommand: ViewCommand.self
    )
}

/// The version shown by `--version`.
enum LayerwatchVersion {
    static let current = "0.1.0"
}
