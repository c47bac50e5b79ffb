import CGtk
import Foundation
import GtkKit
import StreamKit
import StatusKit

/// Sends the print controls' commands for whichever view asked (the tab, a farm tile, a mini
/// window): a stop only after the question naming the printer and its job (in the printer kind's
/// words, over the window it was asked in), then the command through the status hub, and a toast
/// in that window when the printer refused it or did not answer. Each command is meant for the
/// print the view showed: if that print ends or another begins while the question is up, the
/// question closes and a toast says why; a command that reaches the monitor after such a change
/// is not sent (the monitor checks its newest report) and the toast says so too. What the print
/// does is never shown from here: the controls follow the printer's next report, and until it comes
/// the hub's pending command ("Pausing…"); a printer that does it only after the timeout is told.
@MainActor
final class PrintCommands {
    private let hub: PrinterStatusHub
    /// The stop question while it is up (for tests).
    private(set) var pendingStop: OpaquePointer?

    init(hub: PrinterStatusHub) {
        self.hub = hub
    }

    /// Sends `command` to printer `printerID` (named `name`) for the print it shows now; `window`
    /// is where it was asked, `toast` shows a message there.
    func send(_ command: PrintCommand, to printerID: UUID, name: String, over window: UnsafeMutablePointer<GtkWidget>,
              toast: @escaping @MainActor (String) -> Void) {
        let print = hub.latest(printerID)?.print
        let tell = { (outcome: CommandOutcome) in
            guard let message = outcome.message else { return }
            toast(String(format: tr("%@: %@"), name, message))
        }
        let endpoint = hub.endpoint(of: printerID)
        let go = { [hub] in
            hub.send(command, to: printerID, for: print, answer: tell,
                     lateDone: { toast(PrintCommandText.lateDone(command, printer: name, for: endpoint)) })
        }
        guard command == .stop else { return go() }
        let question = DestructiveQuestion.present(
            over: window, heading: PrintCommandText.confirmationHeading(for: endpoint),
            body: PrintCommandText.confirmationBody(job: print?.job, printer: name, for: endpoint),
            action: PrintCommandText.confirmationAction(for: endpoint), onConfirm: go)
        // The question names this print: it goes when another is under way (or none), rather than
        // stay up for a print it does not name. Once answered, the monitor has the last word.
        var answered = false
        let watch = hub.observe(printerID: printerID) { update in
            guard !answered, let update, update.connection == .live, update.print != print else { return }
            gtk_window_destroy(gcast(question))
            tell(.printChanged(asked: print, now: update.print))
        }
        keepAlive(watch, untilDestroyed: question)
        connectSignal(question, "response") { (_: UnsafeMutableRawPointer?) in answered = true }
        connectSignal(question, "destroy") { [weak self] in self?.pendingStop = nil }
        pendingStop = question
    }
}
