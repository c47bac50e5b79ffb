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
