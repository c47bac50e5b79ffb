import Foundation
import GtkKit
import StatusKit

/// A print command this Layerwatch sent that the printer has not yet shown done: the hub keeps one
/// per printer, so the strip, the farm tile and the mini window all say "Pausing…" and grey the
/// control from the click until the printer reports the new state or `StatusMonitor.commandTimeout`
/// passes. A wait that ran out is kept for `lateWindow`: a report showing the command done after
/// all is then told (`lateDone`).
@MainActor
final class CommandWait {
    let command: PrintCommand
    /// The print the command was meant for: a report of another print ends the wait.
    let print: PrintUnderWay?
    /// Tells the user (a toast where the command was given) that the printer did it after the timeout.
    let lateDone: @MainActor () -> Void
    private var timer: RepeatingTimer?
    private var overdueSince: Date?

    /// How long after its timeout a command's late success is still told as its answer.
    static let lateWindow: TimeInterval = 300

    init(_ command: PrintCommand, for print: PrintUnderWay?, lateDone: @escaping @MainActor () -> Void,
         timedOut: @escaping @MainActor () -> Void) {
        self.command = command
        self.print = print
        self.lateDone = lateDone
        timer = RepeatingTimer(seconds: UInt32(StatusMonitor.commandTimeout)) { [weak self] in
            self?.runOut()
            timedOut()
        }
    }

    /// Whether the wait is still on (not run out).
    var isWaiting: Bool { overdueSince == nil }

    /// The wait ran out: the view's pending look goes; a late report may still show it done.
    func runOut() {
        timer?.cancel()
        timer = nil
        if overdueSince == nil { overdueSince = Date() }
    }

    /// What `update` means for this command: `.done` when it shows the command done, `.over` when it
    /// shows another print (or the overdue time is up), `.waiting` otherwise.
    func outcome(of update: StatusMonitor.Update, now: Date = Date()) -> Outcome {
        guard update.connection == .live, let status = update.status else { return .waiting }
        if command.isDone(in: status) { return .done }
        if update.print != print { return .over }
        if let overdueSince, now.timeIntervalSince(overdueSince) > Self.lateWindow { return .over }
        return .waiting
    }

    enum Outcome {
        case waiting, done, over
    }
}
