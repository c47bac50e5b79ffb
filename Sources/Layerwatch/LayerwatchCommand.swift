import ArgumentParser
import StreamKit

/// The `layerwatch` command line: the viewer by default, `probe` for diagnosing a camera.
@main
struct LayerwatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layerwatch",
        abstract: tr("A viewer for 3D-printer cameras (Bambu Lab RTSPS, RTSP, HTTP MJPEG, files)."),
        version: Installation.version,
        subcommands: [ViewCommand.self, ProbeCommand.self, StatusCommand.self, PauseCommand.self, ResumeCommand.self, StopCommand.self,
                      CamerasCommand.self, RelayCommand.self, RecordCommand.self, DiscoverCommand.self, HistoryCommand.self,
                      PrintFileCommand.self],
        defaultSubcommand: ViewCommand.self
    )

    /// Binds the translations before any text (help included) is made, then runs the command.
    static func main() {
        Localization.bind(localeDirectory: Localization.folder().path)
        main(nil)
    }
}
