import Foundation
import StreamKit

/// How a printer took a `PrintCommand`: done (it said so, or its report shows it), refused with its
/// reason, refused because a Bambu printer wants signed commands, not sent because the print it was
/// meant for is no longer the one under way, or no answer in time.
/// The view that sent it says so in a toast; what the print does shows in the next report either way.
public enum CommandOutcome: Equatable, Sendable {
    case done
    /// The printer said no; its reason when it gave one (already safe to show: no secret).
    case refused(String?)
    /// A Bambu printer whose firmware takes control commands only in LAN Only mode with Developer
    /// Mode on (`fun` bit 0x20000000, or a refusal naming the signature check).
    case needsDeveloperMode
    /// Neither an answer nor the state the command leads to within `StatusMonitor.commandTimeout`.
    case noAnswer
    /// The status connection is not live: nothing was sent.
    case notConnected
    /// The request itself failed (the printer's API was unreachable or answered garbage).
    case failed(StatusFailure)
    /// The print the command was meant for (`asked`) ended, or another began, before it went:
    /// nothing was sent. `now` is the print under way, if any.
    case printChanged(asked: PrintUnderWay?, now: PrintUnderWay?)

    /// What the user is told; nil when it went through.
    public var message: String? {
        switch self {
        case .done: return nil
        case .refused(let reason?): return String(format: tr("The printer refused: %@"), reason)
        case .refused(nil): return tr("The printer refused the command.")
        case .needsDeveloperMode: return Self.developerModeHint
        case .noAnswer: return String(format: tr("The printer did not answer within %ld seconds."), Int(StatusMonitor.commandTimeout))
        case .notConnected: return tr("The printer's status is not connected: nothing was sent.")
        case .failed(let failure): return failure.userMessage
        case .printChanged(let asked, let now): return Self.printChanged(asked: asked?.job, now: now)
        }
    }

    /// Why a command was not sent for the print it was meant for, naming both prints where known.
    private static func printChanged(asked: String?, now: PrintUnderWay?) -> String {
        guard let now else {
            return asked.map { String(format: tr("“%@” has ended: nothing was sent."), $0) } ?? tr("The print has ended: nothing was sent.")
        }
        switch (asked, now.job) {
        case (let asked?, let job?): return String(format: tr("“%@” has ended and “%@” has begun: nothing was sent."), asked, job)
        case (nil, let job?): return String(format: tr("Another print, “%@”, has begun: nothing was sent."), job)
        case (_, nil): return tr("Another print has begun: nothing was sent.")
        }
    }

    /// Why a Bambu printer's print controls are insensitive while its firmware wants signed commands.
    public static let developerModeHint = tr("Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch")

    /// A short stable name for `layerwatch pause|resume|stop --json` and logs.
    public var kind: String {
        switch self {
        case .done: return "done"
        case .refused: return "refused"
        case .needsDeveloperMode: return "developerModeRequired"
        case .noAnswer: return "noAnswer"
        case .notConnected: return "notConnected"
        case .failed(let failure): return failure.kind
        case .printChanged: return "printChanged"
        }
    }
}
