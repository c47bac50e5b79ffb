import Foundation
import StreamKit

/// One connection to a printer's status API, for as long as it lasts: the part of a status client
/// that speaks the protocol. `StatusMonitor` runs it on its own thread and reconnects it.
protocol StatusConnection: AnyObject, Sendable {
    /// Connects, then reports the printer's status whenever it may have changed, until the
    /// connection fails (thrown) or `stop` is signalled (returns). `live` is called once the printer
    /// accepted the connection and the credentials.
    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure)

    /// Asks the printer to switch its chamber light (from any thread); the new state comes back in a
    /// later report, never assumed. Printers without a light Layerwatch can switch ignore it.
    func setChamberLight(_ on: Bool)

    /// Sends `command` to the printer (from any thread) and calls `answer` (on any thread) with the
    /// printer's answer, if it gives one: `StatusMonitor` times it out and also counts the printer's
    /// report reaching the command's state as done.
    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void)

    /// Wakes `run` at once after its stop signal was given (from any thread), where the stop signal
    /// alone would be seen only at the connection's next turn.
    func interrupt()
}

extension StatusEndpoint {
    /// A new connection of the kind this endpoint speaks.
    func makeConnection(log: StatusLog) -> StatusConnection {
        switch self {
        case .bambu(let host, let port, let code, let serial):
            return BambuConnection(host: host, port: port, accessCode: code, serial: serial, log: log)
        case .moonraker(_, _, let key):
            return MoonrakerConnection(baseURL: baseURL!, apiKey: key)
        case .octoprint(_, _, let key):
            return OctoPrintConnection(baseURL: baseURL!, apiKey: key)
        case .creality(let host, let port):
            return CrealityConnection(host: host, port: port, log: log)
        case .demo:
            return DemoConnection()
        }
    }

    /// Whether the printer has speed profiles (Bambu's silent, standard, sport, ludicrous).
    public var hasSpeedProfiles: Bool {
        if case .bambu = self { return true }
        return false
    }

    /// Whether Layerwatch can switch this printer's chamber light (Bambu's `ledctrl`, Creality's
    /// `lightSw`; a Creality printer without a light, K1 SE or Ender-3 V3, never reports `lightSw`,
    /// so its toggle stays insensitive).
    public var hasSwitchableLight: Bool {
        switch self {
        case .bambu, .creality: return true
        case .moonraker, .octoprint, .demo: return false
        }
    }
}
