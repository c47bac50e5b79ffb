import StatusKit

/// Whether a print control (pause, resume, stop, speed) shows for a printer now, from its latest
/// status: only while the status is live and the printer's state allows the command (pause while
/// printing, resume while paused, stop and speed while either; speed on Bambu printers only), and
/// locked — shown insensitive, saying why — while a Bambu printer wants signed commands.
enum PrintControlAvailability: Equatable {
    case hidden
    case locked(String)
    case available

    init(_ command: PrintCommand, update: StatusMonitor.Update?, endpoint: StatusEndpoint?) {
        guard update?.connection == .live, let status = update?.status, command.applies(to: status.state) else {
            self = .hidden
            return
        }
        if case .speed = command, !(endpoint?.hasSpeedProfiles ?? false) {
            self = .hidden
        } else if status.needsDeveloperMode {
            self = .locked(CommandOutcome.developerModeHint)
        } else {
            self = .available
        }
    }

    var lockedReason: String? {
        if case .locked(let reason) = self { return reason }
        return nil
    }
}
