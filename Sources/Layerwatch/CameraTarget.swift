import ArgumentParser
import StatusKit
import StreamKit

/// How a command words its camera's URL and `--printer` in its help (`probe` probes the camera,
/// `record` records it, `relay` relays it).
protocol CameraTargetHelp {
    static var urlHelp: String { get }
    static var printerHelp: String { get }
}

/// The camera `probe`, `record` and `relay` open, declared once: a URL, or a saved printer's camera
/// (`--printer`, `--camera`); worded in each command's help by `Help`.
struct CameraTarget<Help: CameraTargetHelp>: ParsableArguments {
    @Argument(help: ArgumentHelp(Help.urlHelp))
    var url: String?

    @Option(name: .long, help: ArgumentHelp(Help.printerHelp))
    var printer: String?

    @OptionGroup var camera: CameraChoice

    func validate() throws {
        guard (url == nil) != (printer == nil) else { throw ValidationError(tr("Give either a camera URL or --printer NAME.")) }
        try camera.validate(printer: printer)
    }

    /// The camera named: a saved printer's, or the URL with the code `code` reads from standard
    /// input put in (or as typed).
    func source(code: CodeFromStdin? = nil) throws -> StreamSource {
        if let printer { return try ProbeTarget.savedPrinter(printer, camera: camera) }
        let url = url ?? "", secret = try code?.read()
        if StatusEndpoint.isStatusURL(url) { return try ProbeTarget.printerCamera(url, secret: secret) }
        guard let secret else { return try StreamSource.parse(url) }
        return try ProbeTarget.url(url, withCode: secret)
    }
}
