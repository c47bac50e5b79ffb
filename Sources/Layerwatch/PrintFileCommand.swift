import ArgumentParser
import Foundation
import Glibc
import JournalKit
import StatusKit
import StreamKit

/// `layerwatch print FILE TARGET…`: sends a sliced file to one or more printers and starts it,
/// the window's Print File without a window. It asks first on a terminal and sends nothing
/// without a yes (nor, off a terminal, without `--yes`); each printer gets its status watched, is
/// refused when it is not free, and is sent the file in parallel with the others
/// (`PrintFileSending`), its progress rewritten on one terminal line, then waits up to
/// `--report-timeout` for the printer to report the print; one line per printer with its result
/// ends it. Ctrl+C cancels every upload (no print starts). Each saved printer that starts the
/// print gets it marked in the user's print journal (`JournalStore.expectPrint`), so the app —
/// running now or when it next sees the printer — records it as started from Layerwatch; a status
/// URL names no saved printer, so its print is not marked. The journal never fails the print.
struct PrintFileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: tr("Send a sliced file to printers and start printing it; asks first."),
        discussion: tr("TARGET is a saved printer (its name, number or id; its code or key taken from the keyring) or a status URL as status takes it.\nExit codes: 0 every printer started the print, 1 a sending failed, 2 invalid file or target, or no --yes off a terminal (nothing is sent), 11 a printer refused the file or was not free, 12 the question was answered no (nothing is sent), 13 a printer took the file but has not reported printing it, 130 cancelled.\nCodes and keys are replaced by *** in everything printed.")
    )

    @Argument(help: ArgumentHelp(tr("The G-code, binary G-code or 3MF file to print.")))
    var file: String

    @Argument(help: ArgumentHelp(tr("The printers: saved printers' names, numbers or ids, or status URLs.")))
    var targets: [String]

    @Flag(name: .long, help: ArgumentHelp(tr("Send without asking (needed when standard input is not a terminal).")))
    var yes = false

    @Option(name: .long, help: ArgumentHelp(tr("The plate of a 3MF project to print (1 is the first).")))
    var plate = 1

    @Option(name: .long, help: ArgumentHelp(tr("Give up on a printer after this many seconds without a status.")))
    var timeout: Double = 20

    @Option(name: .long, help: ArgumentHelp(tr("Wait this many seconds for each printer to report the print it was sent.")))
    var reportTimeout: Double = PrintFileSending.reportTimeout

    func validate() throws {
        if targets.isEmpty { throw ValidationError(tr("Name at least one printer to print on.")) }
        if plate < 1 { throw ValidationError(tr("--plate counts from 1.")) }
    }

    func run() throws {
        if !yes && isatty(STDIN_FILENO) != 1 {
            Self.complain(tr("print asks before it sends: give --yes when standard input is not a terminal. Nothing was sent."))
            throw ExitCode(2)
        }
        let printFile: PrintFile
        do {
            printFile = try PrintFile(url: URL(fileURLWithPath: file))
        } catch {
            Self.complain(error.userMessage)
            throw ExitCode(2)
        }
        var printers: [(name: String, id: UUID?, endpoint: StatusEndpoint)] = []
        for target in targets {
            guard StatusEndpoint.isStatusURL(target) else {
                printers.append(try StatusTarget.savedPrinterNamed(target))
                continue
            }
            do throws(StatusEndpoint.ParseError) {
                let endpoint = try StatusEndpoint.parse(target)
                printers.append((endpoint.host, nil, endpoint))
            } catch {
                Self.complain(String(format: tr("error: %@"), error.description))
                throw ExitCode(2)
            }
        }
        if !yes && !ask(printFile, on: printers.map(\.name)) {
            Self.complain(tr("Nothing was sent."))
            throw ExitCode(PrintControl.declinedExitCode)
        }
        let journal = printers.contains { $0.id != nil } ? JournalStore(url: JournalStore.defaultURL()) : nil
        let sendings = printers.map { PrintFileSending(file: printFile, printer: $0.name, endpoint: $0.endpoint, plate: plate) }
        let interrupt = Self.cancelling(sendings)
        defer { interrupt.cancel() }
        let board = ProgressBoard(names: printers.map(\.name), onTerminal: isatty(STDERR_FILENO) == 1)
        var results = [PrintFileSending.Result?](repeating: nil, count: sendings.count)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: sendings.count) { index in
            let result = send(sendings[index]) { board.show($0, at: index) }
            if [.started, .unreported].contains(result.kind), let id = printers[index].id {
                journal?.expectPrint(printerID: id.uuidString, file: printFile.name)
            }
            lock.withLock { results[index] = result }
        }
        board.end()
        if let journal {
            _ = JournalOpeningWords.tell(journal)
            journal.close()
        }
        for (sending, result) in zip(sendings, results) {
            print(TerminalText.safe(String(format: tr("%@ — %@"), sending.printer, result?.message ?? "")))
        }
        let kinds: [PrintFileSending.Result.Kind] = results.compactMap { $0?.kind }
        if kinds.contains(.failed) { throw ExitCode(1) }
        if kinds.contains(.refused) { throw ExitCode(PrintControl.refusedExitCode) }
        if kinds.contains(.unreported) { throw ExitCode(PrintControl.unconfirmedExitCode) }
        if kinds.contains(.cancelled) { throw ExitCode(130) }
    }

    /// Watches the printer's status until it is live (or fails, or `timeout` passes), sends, and
    /// once the printer was asked to print waits for its report of the print.
    private func send(_ sending: PrintFileSending,
                      progress: @escaping @Sendable (PrintFileSending.Progress) -> Void) -> PrintFileSending.Result {
        let updates = UpdateQueue()
        let monitor = StatusMonitor(endpoint: sending.endpoint, executor: DispatchQueue(label: "layerwatch.print")) { updates.push($0) }
        monitor.start()
        defer { monitor.stop(waitingUpTo: 2) }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let update = updates.pop(timeout: deadline.timeIntervalSinceNow) else {
                return PrintFileSending.Result(kind: .failed, message: StatusFailure.timeout.userMessage)
            }
            if case .failed(let failure, _) = update.connection {
                return PrintFileSending.Result(kind: .failed, message: failure.userMessage)
            }
            if update.connection == .live, update.status != nil {
                let result = sending.run(given: update, monitor: monitor, progress: progress)
                return result.kind == .started ? reported(result, updates: updates) : result
            }
        }
    }

    /// `result` once the printer's `updates` report the print, or `PrintFileSending.unreported` when
    /// `reportTimeout` passes first.
    private func reported(_ result: PrintFileSending.Result, updates: UpdateQueue) -> PrintFileSending.Result {
        let deadline = Date().addingTimeInterval(reportTimeout)
        while let update = updates.pop(timeout: deadline.timeIntervalSinceNow) {
            if update.connection == .live, let status = update.status, PrintFileSending.reportsPrint(status) { return result }
        }
        return PrintFileSending.unreported
    }

    /// "Print “cube.gcode” on Voron, Prusa? [y/N]" on the terminal; true for yes.
    private func ask(_ file: PrintFile, on names: [String]) -> Bool {
        let question = String(format: tr("Print “%@” on %@?"), file.name, names.joined(separator: tr(", ")))
        FileHandle.standardError.write(Data((TerminalText.safe(question) + " " + tr("[y/N]") + " ").utf8))
        let reply = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        return [tr("y"), tr("yes"), "y", "yes"].contains(reply)
    }

    /// Ctrl+C cancels every sending instead of ending the process half-way through an upload.
    private static func cancelling(_ sendings: [PrintFileSending]) -> DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { sendings.forEach { $0.cancel() } }
        source.resume()
        return source
    }

    private static func complain(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.safe(text) + "\n").utf8))
    }
}

/// The progress of every printer on one terminal line of standard error, rewritten at most ten
/// times a second ("Voron 45 % · Prusa 30 % — 12 MB of 30 MB…" for one printer); nothing off a
/// terminal.
private final class ProgressBoard: @unchecked Sendable {
    private let names: [String]
    private let onTerminal: Bool
    private let lock = NSLock()
    private var latest: [PrintFileSending.Progress?]
    private var shown = false

    init(names: [String], onTerminal: Bool) {
        self.names = names
        self.onTerminal = onTerminal
        latest = Array(repeating: nil, count: names.count)
    }

    func show(_ progress: PrintFileSending.Progress, at index: Int) {
        guard onTerminal else { return }
        lock.withLock {
            latest[index] = progress
            let line: String
            if names.count == 1 {
                line = String(format: tr("%@ %ld %% — %@"), names[0], Int(progress.fraction * 100), progress.summary)
            } else {
                line = zip(names, latest).map { name, progress in
                    String(format: tr("%@ %ld %%"), name, Int((progress?.fraction ?? 0) * 100))
                }.joined(separator: " · ")
            }
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + TerminalText.safe(line)).utf8))
            shown = true
        }
    }

    /// Ends the progress line so the results start on their own.
    func end() {
        lock.withLock {
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        }
    }
}
