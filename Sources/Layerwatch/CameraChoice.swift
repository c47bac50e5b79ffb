import ArgumentParser
import StreamKit

/// `--camera`, declared once for every command that opens a saved printer's camera (`probe`,
/// `record`, `relay`): which of its cameras, when it has several.
struct CameraChoice: ParsableArguments {
    @Option(name: .customLong("camera"), help: ArgumentHelp(tr("With --printer: which of its cameras, by name or number (1 is the first, the default).")))
    var name: String?

    /// Refuses the option without `--printer`.
    func validate(printer: String?) throws {
        if name != nil && printer == nil { throw ValidationError(tr("--camera needs --printer.")) }
    }
}
