import StatusKit

/// Whether a print control (pause, resume, stop, speed) shows for a printer now, from its latest
/// status: only while the status is live (or its last live status is kept while it reconnects:
/// then greyed, saying so) and the printer's state allows the command (pause while
/// printing, resume while paused, stop and speed while either; speed on Bambu printers only), and
/// locked — shown insensitive, saying why — while a Bambu printer wants signed commands or while the
/// same command (any, after a stop) sent from here waits for the printer (`pending`: "Pausing…").
enum PrintControlAvailability: Equatable {
    case hidden
    case locked(String)
    case available

    init(_ command: PrintCommand, update: StatusMonitor.Update?, endpoint: StatusEndpoint?, pending: PrintCommand?,
         stale: PrinterStatus?) {
        let isLive = update?.connection == .live
        guard let status = isLive ? update?.status : stale, command.applies(to: status.state) else {
            self = .hidden
            return
        }
        if case .speed = command, !(endpoint?.hasSpeedProfiles ?? false) {
            self = .hidden
        } else if !isLive {
            self = .locked(PrintCommandText.reconnectingHint)
        } else if let pending, Self.waits(command, on: pending) {
            self = .locked(PrintCommandText.pending(pending, for: endpoint))
        } else if status.needsDeveloperMode {
            self = .locked(CommandOutcome.developerModeHint)
        } else {
            self = .available
        }
    }

    /// Whether `command`'s control waits while `pending` does: the same command, or any after a stop.
    private static func waits(_ command: PrintCommand, on pending: PrintCommand) -> Bool {
        switch (command, pending) {
        case (_, .stop), (.pause, .pause), (.resume, .resume), (.speed, .speed): return true
        default: return false
        }
    }

    var lockedReason: String? {
        if case .locked(let reason) = self { return reason }
        return nil
    }
}
