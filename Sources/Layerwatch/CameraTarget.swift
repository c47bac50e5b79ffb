import ArgumentParser
import StreamKit

/// How a command words its camera's URL and `--printer` in its help (`probe` probes the camera,
/// `record` records it).
protocol CameraTargetHelp {
    static var urlHelp: String { get }
    static var printerHelp: String { get }
}

/// The camera `probe` and `record` open, declared once: a URL, or a saved printer's camera
/// (`--printer`, `--camera`); a code from standard input; worded in each command's help by `Help`.
struct CameraTarget<Help: CameraTargetHelp>: ParsableArguments {
    @Argument(help: ArgumentHelp(Help.urlHelp))
    var url: String?

    @Option(name: .long, help: ArgumentHelp(Help.printerHelp))
    var printer: String?

    @OptionGroup var camera: CameraChoice

    @OptionGroup var code: CodeFromStdin

    func validate() throws {
        guard (url == nil) != (printer == nil) else { throw ValidationError(tr("Give either a camera URL or --printer NAME.")) }
        try code.validate(url: url)
        try camera.validate(printer: printer)
    }

    /// The camera's source, its code read from standard input or the keyring.
    func source() throws -> StreamSource {
        try ProbeTarget.source(url: url, printer: printer, camera: camera, code: code)
    }
}
