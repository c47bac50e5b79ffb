import Foundation
import StreamKit

/// Something a user asks a printer to do to the print under way: what the tab's control bar, the
/// farm tile's and mini window's menus, the shortcuts and `layerwatch pause|resume|stop` send. The
/// printer's next report shows whether it happened; a command never changes what is shown itself.
public enum PrintCommand: Equatable, Sendable {
    case pause
    case resume
    /// Ends the print for good (Bambu's "stop", Klipper's and OctoPrint's "cancel").
    case stop
    /// A Bambu printer's speed profile.
    case speed(PrintSpeed)
    /// Starts the file `name` that was just sent to the printer's storage (`UploadOutcome.uploaded`),
    /// its plate `plate` for a 3MF project: what a Bambu (`project_file`) or Elegoo (Cmd 128)
    /// printer needs after the upload; the other families start a file as it is sent.
    case printFile(String, plate: Int)

    /// Whether a printer in `state` can take it: pause while printing, resume while paused, stop and
    /// a speed change while a print is printing or paused.
    public func applies(to state: PrinterStatus.State) -> Bool {
        switch self {
        case .pause: return state == .printing
        case .resume: return state == .paused
        case .stop, .speed: return state == .printing || state == .paused
        case .printFile: return [.idle, .finished, .failed, .cancelled].contains(state)
        }
    }

    /// Whether `status` shows the command done (so a printer that changes its state without
    /// answering the command itself still counts as having obeyed).
    public func isDone(in status: PrinterStatus) -> Bool {
        switch self {
        case .pause: return status.state == .paused
        case .resume: return status.state == .printing
        case .stop: return [.idle, .finished, .failed, .cancelled].contains(status.state)
        case .speed(let speed): return status.speed == speed
        case .printFile: return status.state == .preparing || status.state == .printing
        }
    }

    /// The name the command line and logs use.
    public var name: String {
        switch self {
        case .pause: return "pause"
        case .resume: return "resume"
        case .stop: return "stop"
        case .speed(let speed): return "speed \(speed.name)"
        case .printFile(let name, let plate): return "print \(name) plate \(plate)"
        }
    }
}

/// A Bambu printer's four speed profiles, as its `print_speed` command and `spd_lvl` report number
/// them (1…4; ../shared/PROTOCOLS.md §9, ha-bambulab's `SPEED_PROFILE`).
public enum PrintSpeed: Int, CaseIterable, Sendable {
    case silent = 1, standard, sport, ludicrous

    /// The name Bambu Studio and the printer's screen give it, untranslated (an action target).
    public var name: String {
        switch self {
        case .silent: return "silent"
        case .standard: return "standard"
        case .sport: return "sport"
        case .ludicrous: return "ludicrous"
        }
    }

    public init?(name: String) {
        guard let speed = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = speed
    }

    /// The translated label, as Bambu Studio words it.
    public var title: String {
        switch self {
        case .silent: return tr("Silent")
        case .standard: return tr("Standard")
        case .sport: return tr("Sport")
        case .ludicrous: return tr("Ludicrous")
        }
    }
}
