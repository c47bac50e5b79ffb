import Foundation
import StreamKit

/// The words for print commands in each printer kind's own terms — Bambu Studio and Creality Print
/// "stop" a print (Creality's command is `stop`: ha_creality_ws, Connect3Dp's CrealityK1C.md),
/// Mainsail and OctoPrint "cancel" it — the same in the app's controls, its confirmation and
/// `layerwatch pause|resume|stop`.
public enum PrintCommandText {
    /// Whether the printer's own apps call ending a print "cancel" (Klipper, OctoPrint) rather
    /// than "stop" (Bambu, Creality).
    static func cancels(_ endpoint: StatusEndpoint?) -> Bool {
        endpoint?.family.cancelsPrints ?? false
    }

    /// A control's label: "Pause Print", "Stop Print…" (it asks first).
    public static func title(_ command: PrintCommand, for endpoint: StatusEndpoint?) -> String {
        switch command {
        case .pause: return tr("Pause Print")
        case .resume: return tr("Resume Print")
        case .stop: return cancels(endpoint) ? tr("Cancel Print…") : tr("Stop Print…")
        case .speed(let speed): return speed.title
        case .printFile: return tr("Print")
        }
    }

    /// What the views show from the click until the printer reports the command done: "Pausing…".
    public static func pending(_ command: PrintCommand, for endpoint: StatusEndpoint?) -> String {
        switch command {
        case .pause: return tr("Pausing…")
        case .resume: return tr("Resuming…")
        case .stop: return cancels(endpoint) ? tr("Cancelling…") : tr("Stopping…")
        case .speed: return tr("Setting speed…")
        case .printFile: return tr("Starting…")
        }
    }

    /// The refusal of `PrintCommand.printFile` by a printer that starts a file as it is sent.
    static let startsWhenSent = tr("This printer starts a file as it is sent")

    /// Why the print controls are greyed while a printer that answered reconnects.
    public static let reconnectingHint = tr("Reconnecting to the printer: the controls come back when it answers")

    /// The toast when printer `printer` reports a command done only after it went unanswered.
    public static func lateDone(_ command: PrintCommand, printer: String, for endpoint: StatusEndpoint?) -> String {
        switch command {
        case .pause: return String(format: tr("%@ paused after all."), printer)
        case .resume: return String(format: tr("%@ resumed after all."), printer)
        case .stop: return String(format: cancels(endpoint) ? tr("%@ cancelled the print after all.")
                                                            : tr("%@ stopped the print after all."), printer)
        case .speed: return String(format: tr("%@ changed its speed after all."), printer)
        case .printFile: return String(format: tr("%@ started the print after all."), printer)
        }
    }

    /// The confirmation's heading.
    public static func confirmationHeading(for endpoint: StatusEndpoint?) -> String {
        cancels(endpoint) ? tr("Cancel the Print?") : tr("Stop the Print?")
    }

    /// The confirmation's body, naming the job and the printer.
    public static func confirmationBody(job: String?, printer: String, for endpoint: StatusEndpoint?) -> String {
        let cancels = cancels(endpoint)
        guard let job else {
            return String(format: cancels ? tr("The print on “%@” is cancelled for good: it cannot be resumed.")
                                          : tr("The print on “%@” is stopped for good: it cannot be resumed."), printer)
        }
        return String(format: cancels ? tr("“%@” on “%@” is cancelled for good: it cannot be resumed.")
                                      : tr("“%@” on “%@” is stopped for good: it cannot be resumed."), job, printer)
    }

    /// The confirmation's destructive button.
    public static func confirmationAction(for endpoint: StatusEndpoint?) -> String {
        cancels(endpoint) ? tr("Cancel Print") : tr("Stop Print")
    }

    /// Why a command does not apply to a printer in `state`: "The printer is idle: there is no print to pause."
    public static func notApplicable(_ command: PrintCommand, state: PrinterStatus.State) -> String {
        let state = StatusText.state(state).lowercased()
        switch command {
        case .pause: return String(format: tr("The printer is %@: there is no print to pause."), state)
        case .resume: return String(format: tr("The printer is %@: there is no paused print to resume."), state)
        case .stop, .speed: return String(format: tr("The printer is %@: there is no print under way."), state)
        case .printFile: return String(format: tr("The printer is %@: it can start a print only when idle."), state)
        }
    }
}
