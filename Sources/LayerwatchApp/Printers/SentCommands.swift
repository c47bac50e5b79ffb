import Foundation
import StatusKit

/// The print commands this Layerwatch sent (from a tab, a farm tile, a mini window), so that the
/// pause or the cancelled print they lead to is not notified back to the user who clicked them;
/// the same state reached otherwise (another client, the printer's screen, a filament run-out) is.
/// Only this process's commands: `layerwatch pause` and `layerwatch stop` run in another process,
/// and what they lead to is notified as another client's command would be.
@MainActor
final class SentCommands {
    /// How long after it was sent a command still accounts for the state it asked for: a printer
    /// answers within `StatusMonitor.commandTimeout`, and may take a while more to park its head.
    static let window: TimeInterval = 120

    private var sent: [UUID: (command: PrintCommand, at: Date)] = [:]

    /// `command` went to printer `printerID` at `now`.
    func record(_ command: PrintCommand, to printerID: UUID, at now: Date = Date()) {
        sent[printerID] = (command, now)
    }

    /// The printer refused the command or it was never sent: it accounts for nothing.
    func forget(_ command: PrintCommand, to printerID: UUID) {
        if sent[printerID]?.command == command { sent[printerID] = nil }
    }

    /// Whether `event` of printer `printerID` is what a command sent from here asked for, within
    /// `window`; a command accounts for one event only.
    func accountFor(_ event: PrintEvent, of printerID: UUID, at now: Date = Date()) -> Bool {
        guard let last = sent[printerID], now.timeIntervalSince(last.at) <= Self.window else { return false }
        switch (event, last.command) {
        case (.paused, .pause), (.cancelled, .stop):
            sent[printerID] = nil
            return true
        default:
            return false
        }
    }
}
