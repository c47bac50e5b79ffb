import ArgumentParser

/// The `layerwatch` command line. Until the viewer window lands, its subcommand `probe` is the app.
@main
struct LayerwatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layerwatch",
        abstract: "A viewer for 3D-printer cameras (Bambu Lab RTSPS, RTSP, HTTP MJPEG, files).",
        version: LayerwatchVersion.current,
        subcommands: [ProbeCommand.self]
    )
}

/// The version shown by `--version`.
enum LayerwatchVersion {
    static let current = "0.1.0"
}
