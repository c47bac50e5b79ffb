import ArgumentParser
import Foundation
import Glibc
import StatusKit
import StreamKit

/// `layerwatch pause|resume|stop TARGET`: the print controls without a window. Each waits for the
/// printer's status, sends the command once if the printer's state allows it and the print is still
/// the one it saw, and prints what the printer then reports. `stop` asks first on a terminal and,
/// without `--yes`, refuses to run when standard input is not one (nothing is sent).
struct PauseCommand: ParsableCommand {
    static let configuration = PrintControl.configuration("pause", abstract: tr("Pause a printer's print."))
    @OptionGroup var target: PrintControl

    func run() throws { try target.run(.pause) }
}

struct ResumeCommand: ParsableCommand {
    static let configuration = PrintControl.configuration("resume", abstract: tr("Resume a printer's paused print."))
    @OptionGroup var target: PrintControl

    func run() throws { try target.run(.resume) }
}

struct StopCommand: ParsableCommand {
    static let configuration = PrintControl.configuration("stop", abstract: tr("Stop (cancel) a printer's print for good; asks first."))
    @OptionGroup var target: PrintControl

    @Flag(name: .long, help: ArgumentHelp(tr("Stop without asking (needed when standard input is not a terminal).")))
    var yes = false

    func validate() throws {
        if !yes && isatty(STDIN_FILENO) != 1 {
            throw ValidationError(tr("stop asks before it acts: give --yes when standard input is not a terminal. Nothing was sent."))
        }
        if !yes && target.source.code.isOn {
            throw ValidationError(tr("stop reads its answer from standard input: give --yes with --code-from-stdin. Nothing was sent."))
        }
    }

    func run() throws { try target.run(.stop, confirmed: yes) }
}

/// What the three print commands share: the target (as `status` takes it), the output and the wait.
struct PrintControl: ParsableArguments {
    /// The exit code for a command the printer refused (or would refuse: wrong state, Developer
    /// Mode), or that was not sent because the print it was meant for is no longer under way.
    static let refusedExitCode: Int32 = 11
    /// The exit code for a stop the user declined at the question (nothing was sent).
    static let declinedExitCode: Int32 = 12
    /// The exit code for a command the printer accepted without then reporting the state it leads to.
    static let unconfirmedExitCode: Int32 = 13

    static func configuration(_ name: String, abstract: String) -> CommandConfiguration {
        CommandConfiguration(commandName: name, abstract: abstract, discussion: tr("Exit codes as for status, and: 11 when the printer refused the command, or its state does not allow it, or the print ended or another began before the command went (nothing is sent then); 12 when stop's question was answered no (nothing is sent); 13 when the printer accepted the command but did not report the state it leads to within 10 seconds.\n--printer takes a saved printer's id, its name, or its number in the list of printers (1 is the first); a name several printers share is refused, listing them.\nCodes and keys are replaced by *** in everything printed."))
    }

    @OptionGroup var source: StatusTargetArguments<PrintControl>

    @Flag(name: .long, help: ArgumentHelp(tr("Print the outcome as JSON.")))
    var json = false

    @Option(name: .long, help: ArgumentHelp(tr("Give up after this many seconds without a status.")))
    var timeout: Double = 20

    /// Connects, checks, asks (a stop, on a terminal, unless `confirmed`), sends once, and reports.
    func run(_ command: PrintCommand, confirmed: Bool = true) throws {
        try source.watch(queue: "layerwatch.command") { endpoint, monitor, updates in
            let (status, underWay) = try firstStatus(updates, endpoint: endpoint)
            if status.needsDeveloperMode { throw refuse(command, .needsDeveloperMode, status: status, endpoint: endpoint) }
            guard command.applies(to: status.state) else {
                print(report(command, kind: "notApplicable", message: PrintCommandText.notApplicable(command, state: status.state),
                             status: status, endpoint: endpoint))
                throw ExitCode(Self.refusedExitCode)
            }
            if !confirmed && !askToStop(status, endpoint: endpoint) {
                FileHandle.standardError.write(Data((tr("Nothing was sent.") + "\n").utf8))
                throw ExitCode(Self.declinedExitCode)
            }
            // The monitor sends it only while the print asked about is still the one under way.
            let answer = CommandOutcomeWait()
            monitor.send(command, for: underWay) { answer.give($0) }
            let outcome = answer.wait()
            // What the printer then reports: its next status in the command's state, or the last one.
            var reported = status
            let deadline = Date().addingTimeInterval(outcome == .done ? StatusMonitor.commandTimeout : 0)
            while !command.isDone(in: reported), let update = updates.pop(timeout: deadline.timeIntervalSinceNow) {
                if let next = update.status, update.connection == .live { reported = next }
            }
            guard outcome == .done else { throw refuse(command, outcome, status: reported, endpoint: endpoint) }
            guard command.isDone(in: reported) else {
                let message = String(format: tr("%@: the printer accepted it but still reports: %@."), commandTitle(command, for: endpoint),
                                     StatusText.state(reported.state).lowercased())
                print(report(command, kind: "unconfirmed", message: message, status: reported, endpoint: endpoint))
                throw ExitCode(Self.unconfirmedExitCode)
            }
            print(report(command, kind: outcome.kind, message: nil, status: reported, endpoint: endpoint))
        }
    }

    /// The first live status and the print under way in it, or the failure's report and exit code.
    private func firstStatus(_ updates: UpdateQueue, endpoint: StatusEndpoint) throws -> (PrinterStatus, PrintUnderWay?) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let update = updates.pop(timeout: deadline.timeIntervalSinceNow) else {
                print(json ? StatusReportFormatter.json(StatusFailure.timeout, endpoint: endpoint) : StatusReportFormatter.text(StatusFailure.timeout, endpoint: endpoint))
                throw ExitCode(StatusCommand.exitCode(.timeout))
            }
            if case .failed(let failure, _) = update.connection {
                print(json ? StatusReportFormatter.json(failure, endpoint: endpoint) : StatusReportFormatter.text(failure, endpoint: endpoint))
                throw ExitCode(StatusCommand.exitCode(failure))
            }
            if update.connection == .live, let status = update.status { return (status, update.print) }
        }
    }

    /// Asks on the terminal, naming the job and the printer; true for yes.
    private func askToStop(_ status: PrinterStatus, endpoint: StatusEndpoint) -> Bool {
        let question = PrintCommandText.confirmationHeading(for: endpoint) + " "
            + PrintCommandText.confirmationBody(job: status.job, printer: source.printer ?? endpoint.host, for: endpoint)
        FileHandle.standardError.write(Data((TerminalText.safe(question) + " " + tr("[y/N]") + " ").utf8))
        let reply = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        return [tr("y"), tr("yes"), "y", "yes"].contains(reply)
    }

    /// Prints why the command was not carried out and gives the exit code.
    private func refuse(_ command: PrintCommand, _ outcome: CommandOutcome, status: PrinterStatus, endpoint: StatusEndpoint) -> ExitCode {
        print(report(command, kind: outcome.kind, message: outcome.message, status: status, endpoint: endpoint))
        switch outcome {
        case .failed(let failure): return ExitCode(StatusCommand.exitCode(failure))
        case .noAnswer, .notConnected: return ExitCode(StatusCommand.exitCode(.timeout))
        case .done, .refused, .needsDeveloperMode, .printChanged: return ExitCode(Self.refusedExitCode)
        }
    }

    /// The outcome for the terminal or as JSON: `kind` and `message` (nil when it went through),
    /// and the state the printer last reported.
    private func report(_ command: PrintCommand, kind: String, message: String?, status: PrinterStatus, endpoint: StatusEndpoint) -> String {
        if json {
            var object: [String: Any] = ["endpoint": endpoint.description, "command": command.name, "outcome": kind,
                                         "state": status.state.rawValue]
            object["message"] = message
            object["job"] = status.job
            return StatusReportFormatter.encode(object)
        }
        let line = message ?? String(format: tr("%@: sent. The printer reports: %@."), commandTitle(command, for: endpoint),
                                             StatusText.state(status.state).lowercased())
        return TerminalText.safe(String(format: tr("%@ — %@"), endpoint.description, line))
    }

    /// The control's label without its "…": "Pause Print", "Cancel Print".
    private func commandTitle(_ command: PrintCommand, for endpoint: StatusEndpoint) -> String {
        PrintCommandText.title(command, for: endpoint).trimmingCharacters(in: CharacterSet(charactersIn: "…"))
    }
}

extension PrintControl: StatusTargetHelp {
    static var printerHelp: String { tr("Act on this saved printer (its name, number or id), its code or key taken from the keyring.") }
}
