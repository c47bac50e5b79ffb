import ArgumentParser
import Foundation
import StatusKit
import StreamKit

/// How a command words `--printer` in its help (`status` shows the printer's status, the print
/// commands act on it).
protocol StatusTargetHelp {
    static var printerHelp: String { get }
}

/// The printer `status` and the print commands watch, declared once: a status URL or a saved
/// printer (`--printer`), a code from standard input; `--printer` worded in each help by `Help`.
struct StatusTargetArguments<Help: StatusTargetHelp>: ParsableArguments {
    @Argument(help: ArgumentHelp(tr("bambu://bblp:CODE@HOST[:PORT]?serial=SERIAL, moonraker://HOST[:PORT][?key=KEY], octoprint://HOST[:PORT]?key=KEY, creality://HOST[:PORT], elegoo://HOST[:PORT], flashforge://HOST[:PORT]?serial=SERIAL or prusalink://HOST[:PORT] (a check code or password with --code-from-stdin or --printer).")))
    var url: String?

    @Option(name: .long, help: ArgumentHelp(Help.printerHelp))
    var printer: String?

    @OptionGroup var code: CodeFromStdin

    func validate() throws {
        guard (url == nil) != (printer == nil) else { throw ValidationError(tr("Give either a status URL or --printer NAME.")) }
        try code.validate(url: url)
    }

    /// Runs `body` with the printer's endpoint and a started monitor of its status (its updates in
    /// `updates`, its work on queue `label`), and stops the monitor after.
    func watch<T>(queue label: String,
                  _ body: (_ endpoint: StatusEndpoint, _ monitor: StatusMonitor, _ updates: UpdateQueue) throws -> T) throws -> T {
        let endpoint = try printer.map(StatusTarget.savedPrinter) ?? StatusTarget.endpoint(url ?? "", code: code)
        let updates = UpdateQueue()
        let monitor = StatusMonitor(endpoint: endpoint, executor: DispatchQueue(label: label)) { updates.push($0) }
        monitor.start()
        defer { monitor.stop(waitingUpTo: 2) }
        return try body(endpoint, monitor, updates)
    }
}
