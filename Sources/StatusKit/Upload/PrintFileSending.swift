import Foundation
import StreamKit

/// Sending one file to one printer to print, as the window and `layerwatch print` both do it: it
/// refuses before a byte goes when the printer is not free (printing, paused, preparing, offline)
/// or its family cannot print the file's kind, streams the file with the family's `send`, reports
/// progress with its speed and time left, starts a file the printer only stored
/// (`PrintCommand.printFile` through the status monitor, done when the report shows it printing),
/// and ends with one result in the user's words. A started print is the printer's to report:
/// whoever waits for that report gives up after `reportTimeout` with `unreported`. `cancel()`
/// stops it at any point before the print is started; runs on the caller's thread, never the main
/// loop's.
public final class PrintFileSending: Sendable {
    /// How far the sending has come, with the speed so far and the time left at that speed.
    public struct Progress: Equatable, Sendable {
        public let sent: Int64
        public let total: Int64
        /// Bytes a second since the first byte; nil before a second's worth of measure.
        public let bytesPerSecond: Double?
        public let secondsLeft: TimeInterval?

        public var fraction: Double { total > 0 ? min(1, Double(sent) / Double(total)) : 0 }

        /// "12 MB of 30 MB — 5.1 MB/s, 4 s left" (without the speed before it is known).
        public var summary: String {
            let sizes = String(format: tr("%@ of %@"), ByteCountFormatter.string(fromByteCount: sent, countStyle: .file),
                               ByteCountFormatter.string(fromByteCount: total, countStyle: .file))
            guard let bytesPerSecond, let secondsLeft else { return sizes }
            let speed = String(format: tr("%@/s"), ByteCountFormatter.string(fromByteCount: Int64(bytesPerSecond), countStyle: .file))
            let left = secondsLeft < 60 ? String(format: tr("%d s left"), Int(secondsLeft.rounded(.up)))
                : String(format: tr("%@ left"), StatusText.duration(secondsLeft))
            return String(format: tr("%@ — %@, %@"), sizes, speed, left)
        }
    }

    /// How it ended, in the user's words.
    public struct Result: Equatable, Sendable {
        public enum Kind: String, Sendable {
            /// The printer took the file and started it.
            case started
            /// The printer, or Layerwatch for it, would not take it: nothing printed.
            case refused
            /// The sending broke (unreachable, the key rejected): nothing printed.
            case failed
            /// The user cancelled it: nothing printed.
            case cancelled
            /// The printer took the file and was asked to print it, but has not reported printing
            /// it within `reportTimeout`: it may still start, or may never.
            case unreported
        }

        public let kind: Kind
        public let message: String

        public init(kind: Kind, message: String) {
            self.kind = kind
            self.message = message
        }
    }

    public let file: PrintFile
    /// The printer's name for messages ("Voron").
    public let printer: String
    public let endpoint: StatusEndpoint
    public let plate: Int
    private let stop = StopSignal()

    public init(file: PrintFile, printer: String, endpoint: StatusEndpoint, plate: Int = 1) {
        self.file = file
        self.printer = printer
        self.endpoint = endpoint
        self.plate = plate
    }

    /// Stops the sending: an upload under way is interrupted (its partial file removed where the
    /// API allows), and no print is started.
    public func cancel() { stop.stop() }

    /// Why the printer cannot take a file now, or this file at all; nil when it can. `update` is
    /// the status monitor's latest (nil before any came).
    public func refusal(given update: StatusMonitor.Update?) -> String? {
        guard let update, update.connection == .live, let status = update.status, status.state != .offline else {
            return String(format: tr("“%@” is not connected: it can take a file when its status is back."), printer)
        }
        if !PrintCommand.printFile(file.name, plate: plate).applies(to: status.state) {
            return String(format: tr("“%@” is %@: it can take a file when the print has ended."), printer,
                          StatusText.state(status.state).lowercased())
        }
        return endpoint.family.refusal(of: file.kind)
    }

    /// Sends the file, given the printer's latest status `update` and its `monitor` (which starts
    /// a file the printer only stored), calling `progress` at most every `progressSpacing` and at
    /// the end; blocks until it is done.
    public func run(given update: StatusMonitor.Update?, monitor: StatusMonitor,
                    progress: @escaping @Sendable (Progress) -> Void) -> Result {
        if let refusal = refusal(given: update) { return Result(kind: .refused, message: refusal) }
        if stop.isStopped { return cancelled }
        let meter = ProgressMeter(progress)
        let outcome = endpoint.family.send(file, to: endpoint, plate: plate, stop: stop) { meter.measure($0) }
        switch outcome {
        case .started:
            return Result(kind: .started, message: String(format: tr("Printing “%@”."), file.name))
        case .uploaded(let remoteName):
            if stop.isStopped { return cancelled }
            return start(remoteName, monitor: monitor, print: update?.print)
        case .refused(let reason):
            return Result(kind: .refused, message: String(format: tr("The printer refused the file: %@"), reason))
        case .failed(let failure):
            return Result(kind: .failed, message: String(format: tr("The file was not sent: %@"), Self.words(for: failure)))
        case .cancelled:
            return cancelled
        }
    }

    /// Why an upload failed, in the user's terms (a status failure's words speak of the status).
    private static func words(for failure: StatusFailure) -> String {
        switch failure {
        case .authRejected, .credentialsRejected:
            return tr("the printer rejected the access code or API key — check it in the printer's settings.")
        case .timeout: return tr("the printer did not answer in time.")
        case .refused: return tr("the printer refused the connection.")
        case .notFound: return tr("the printer takes no files at that address.")
        case .protocolError(let detail): return String(format: tr("the printer's answer could not be understood (%@)."), detail)
        case .loginRequired, .missingSerial: return failure.userMessage
        }
    }

    private var cancelled: Result { Result(kind: .cancelled, message: tr("Cancelled: nothing was printed.")) }

    /// Has the printer start the file it stored as `name`, and waits for its answer or its report.
    private func start(_ name: String, monitor: StatusMonitor, print: PrintUnderWay?) -> Result {
        let answer = CommandOutcomeWait()
        monitor.send(.printFile(name, plate: plate), for: print) { answer.give($0) }
        let given = answer.wait()
        if given == .done { return Result(kind: .started, message: String(format: tr("Printing “%@”."), file.name)) }
        let reason = given.message ?? tr("The printer refused the command.")
        return Result(kind: .failed, message: String(format: tr("The file was sent but did not start: %@"), reason))
    }

    /// How long a printer that took the file and was asked to print it has to report the print
    /// before the wait for it ends in `unreported`. Heating counts (`reportsPrint` takes preparing
    /// as well as printing), so this only covers the report coming: three times
    /// `StatusMonitor.commandTimeout`, room for a printer polled every 2 s whose poll once runs into
    /// the 10 s HTTP timeout, or one that opens a large file before it changes state.
    public static let reportTimeout: TimeInterval = 3 * StatusMonitor.commandTimeout

    /// Whether `status` reports the print a `.started` result asked for: preparing (heating,
    /// levelling) or printing, as `PrintCommand.printFile` is done.
    public static func reportsPrint(_ status: PrinterStatus) -> Bool {
        PrintCommand.printFile("", plate: 1).isDone(in: status)
    }

    /// The end of a sending whose printer has not reported the print within `reportTimeout`.
    public static var unreported: Result {
        Result(kind: .unreported, message: tr("The file was sent, but the printer has not reported printing it: check the printer."))
    }

    /// The least time between two progress reports.
    public static let progressSpacing: TimeInterval = 0.1
}

/// Turns the bytes sent into `PrintFileSending.Progress` (speed since the first report, time left
/// at that speed) and hands it on at most every `progressSpacing`, and always at the end.
private final class ProgressMeter: @unchecked Sendable {
    private let report: @Sendable (PrintFileSending.Progress) -> Void
    private let began = DispatchTime.now().uptimeNanoseconds
    private var last: UInt64 = 0

    init(_ report: @escaping @Sendable (PrintFileSending.Progress) -> Void) {
        self.report = report
    }

    func measure(_ progress: UploadProgress) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard progress.sent >= progress.total || Double(now - last) / 1e9 >= PrintFileSending.progressSpacing else { return }
        last = now
        let seconds = Double(now - began) / 1e9
        let speed = seconds >= 1 ? Double(progress.sent) / seconds : nil
        let left = speed.map { $0 > 0 ? Double(progress.total - progress.sent) / $0 : nil } ?? nil
        report(PrintFileSending.Progress(sent: progress.sent, total: progress.total, bytesPerSecond: speed, secondsLeft: left))
    }
}
