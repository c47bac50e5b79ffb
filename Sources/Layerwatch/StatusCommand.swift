import ArgumentParser
import Foundation
import PrinterKit
import StatusKit
import StreamKit

/// `layerwatch status URL`: the headless twin of the status strip, as `probe` is of the camera.
/// Prints the printer's state once (or every change with `--watch`); on failure the classified
/// error and probe's exit codes.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: tr("Show a printer's print status: state, job, progress, layer, time left, temperatures, light."),
        discussion: tr("Exit codes: 0 ok, 2 invalid URL or missing serial, 3 access code or API key rejected, 4 refused,\n5 timeout or unreachable, 6 no printer API there, 9 protocol error.\nCodes and keys are replaced by *** in everything printed.")
    )

    @OptionGroup var source: StatusTargetArguments<StatusCommand>

    @Flag(name: .long, help: ArgumentHelp(tr("Print the status as JSON (one object per line with --watch).")))
    var json = false

    @Flag(name: .long, help: ArgumentHelp(tr("Keep printing the status whenever it changes, reconnecting as the app does, until interrupted.")))
    var watch = false

    @Option(name: .long, help: ArgumentHelp(tr("Give up after this many seconds without a status (without --watch).")))
    var timeout: Double = 20

    func run() throws {
        try source.watch(queue: "layerwatch.status") { endpoint, _, updates in
            var printed: PrinterStatus?
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                guard let update = updates.pop(timeout: watch ? .infinity : deadline.timeIntervalSinceNow) else {
                    print(format(StatusFailure.timeout, endpoint))
                    throw ExitCode(ProbeReportFormatter.exitCode(forKind: StatusFailure.timeout.kind))
                }
                switch update.connection {
                case .failed(let failure, let retryIn):
                    print(format(failure, endpoint))
                    if !watch || retryIn == nil { throw ExitCode(Self.exitCode(failure)) }
                case .live:
                    // The job's thumbnail is not printed: its coming is no change here.
                    guard var status = update.status else { continue }
                    status.thumbnail = nil
                    guard status != printed else { continue }
                    printed = status
                    print(json ? StatusReportFormatter.json(status, endpoint: endpoint) : StatusReportFormatter.text(status, endpoint: endpoint) + (watch ? "\n" : ""))
                    fflush(stdout)
                    if !watch { return }
                case .connecting:
                    continue
                }
            }
        }
    }

    private func format(_ failure: StatusFailure, _ endpoint: StatusEndpoint) -> String {
        json ? StatusReportFormatter.json(failure, endpoint: endpoint) : StatusReportFormatter.text(failure, endpoint: endpoint)
    }

    static func exitCode(_ failure: StatusFailure) -> Int32 {
        failure == .missingSerial ? 2 : ProbeReportFormatter.exitCode(forKind: failure.kind)
    }
}

extension StatusCommand: StatusTargetHelp {
    static var printerHelp: String { tr("The status of this saved printer (its name, number or id), its code or key taken from the keyring.") }
}

/// `layerwatch cameras moonraker://…|octoprint://…|go2rtc://…`: the cameras an import would add.
struct CamerasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cameras",
        abstract: tr("List the cameras a Klipper (Moonraker) or OctoPrint host, a Flashforge printer or a go2rtc restreamer knows, as Layerwatch would import them."),
        discussion: tr("Exit codes as for status.")
    )

    @Argument(help: ArgumentHelp(tr("moonraker://HOST[:PORT][?key=KEY], octoprint://HOST[:PORT]?key=KEY, flashforge://HOST[:PORT]?serial=SERIAL or go2rtc://[USER:PASSWORD@]HOST[:PORT].")))
    var url: String

    @OptionGroup var code: CodeFromStdin

    @Flag(name: .long, help: ArgumentHelp(tr("Print the list as JSON.")))
    var json = false

    func run() throws {
        let source: CustomStringConvertible
        let list: () throws(StatusFailure) -> [ImportedCamera]
        if let go2rtc = Go2RTCImport.parse(url) {
            source = go2rtc
            list = { () throws(StatusFailure) in try go2rtc.cameras() }
        } else {
            let endpoint = try StatusTarget.endpoint(url, code: code)
            if let refusal = endpoint.cameraListRefusal { throw ValidationError(refusal) }
            source = endpoint
            list = { () throws(StatusFailure) in try CameraImport.cameras(at: endpoint) }
        }
        do {
            let cameras = try list()
            print(json ? StatusReportFormatter.json(cameras, endpoint: source) : StatusReportFormatter.text(cameras, endpoint: source))
        } catch {
            print(json ? StatusReportFormatter.json(error, endpoint: source) : StatusReportFormatter.text(error, endpoint: source))
            throw ExitCode(StatusCommand.exitCode(error))
        }
    }
}

/// A status URL from the command line or a saved printer's endpoint, or exit code 2 with the reason
/// (never the URL's secrets).
enum StatusTarget {
    static func endpoint(_ url: String, code: CodeFromStdin) throws -> StatusEndpoint {
        do {
            return try StatusEndpoint.parse(url, secret: code.read())
        } catch let error as StatusEndpoint.ParseError {
            throw fail(error.description)
        } catch {
            throw fail("\(error)")
        }
    }

    /// The saved printer's endpoint, its access code or API key from the keyring (or the file).
    static func savedPrinter(_ name: String) throws -> StatusEndpoint {
        try savedPrinterNamed(name).endpoint
    }

    /// The saved printer's name, id and endpoint (`savedPrinter`).
    static func savedPrinterNamed(_ name: String) throws -> (name: String, id: UUID, endpoint: StatusEndpoint) {
        let printer: Printer
        do {
            printer = try ProbeTarget.saved(name).0
        } catch {
            throw fail("\(error)")
        }
        guard let endpoint = printer.statusEndpoint else {
            throw fail(String(format: tr("“%@” has no print status: it is a camera only, or a Bambu printer without its access code"), printer.name))
        }
        return (printer.name, printer.id, endpoint)
    }

    private static func fail(_ reason: String) -> ExitCode {
        FileHandle.standardError.write(Data((String(format: tr("error: %@"), TerminalText.safe(reason)) + "\n").utf8))
        return ExitCode(2)
    }
}

/// The monitor's updates, handed from its executor to the command's main thread.
final class UpdateQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var updates: [StatusMonitor.Update] = []

    func push(_ update: StatusMonitor.Update) {
        condition.withLock {
            updates.append(update)
            condition.signal()
        }
    }

    /// The next update; nil when none came within `timeout` (which may be infinite).
    func pop(timeout: TimeInterval) -> StatusMonitor.Update? {
        let deadline = timeout.isFinite ? Date().addingTimeInterval(timeout) : nil
        return condition.withLock {
            while updates.isEmpty {
                if let deadline {
                    guard condition.wait(until: deadline) else { return nil }
                } else {
                    condition.wait()
                }
            }
            return updates.removeFirst()
        }
    }
}
