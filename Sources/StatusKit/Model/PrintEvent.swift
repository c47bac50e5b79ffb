import Foundation

/// Something about a print worth a desktop notification: it finished, failed, was cancelled or paused, or the
/// printer raised Bambu HMS alerts it did not show before. Found by comparing a report with the
/// `PrintMark` the previous one left (`changes(from:to:)`), so a state reported again — after a
/// reconnect, or after a restart when the mark was saved — is never an event twice.
public enum PrintEvent: Equatable, Sendable {
    case finished
    case failed
    case cancelled
    case paused
    /// The HMS codes (`0300_0100_0001_0007`) that were not there at the previous report.
    case alerts([String])

    /// The events between `mark` (nil for a printer never seen) and `status`, and the mark to keep.
    /// A printer seen for the first time gives none: what it shows was there before Layerwatch
    /// looked. An offline printer changes nothing: coming back with the same state is no event.
    /// A report that leaves the job out keeps the job of the same state (it is the same print).
    public static func changes(from mark: PrintMark?, to status: PrinterStatus) -> (events: [PrintEvent], mark: PrintMark?) {
        guard status.state != .offline else { return ([], mark) }
        let job = status.job ?? (mark?.state == status.state ? mark?.job : nil)
        let next = PrintMark(state: status.state, job: job, alerts: status.notifiedAlertCodes)
        guard let mark else { return ([], next) }
        var events: [PrintEvent] = []
        if next.state != mark.state || next.job != mark.job, let ended = PrintEvent(state: next.state) {
            events.append(ended)
        }
        let appeared = next.alerts.filter { !mark.alerts.contains($0) }
        if !appeared.isEmpty { events.append(.alerts(appeared)) }
        return (events, next)
    }

    /// The event of entering `state`, for the states that have one.
    public init?(state: PrinterStatus.State) {
        switch state {
        case .finished: self = .finished
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        case .paused: self = .paused
        case .idle, .preparing, .printing, .offline: return nil
        }
    }
}

/// What a printer's last report meant to its notifications: its state, its job and the HMS codes it
/// showed. Small and saved between runs; a job name is kept to its first `jobLength` characters and
/// the codes to `alertLimit`, whatever a printer sends.
public struct PrintMark: Codable, Equatable, Sendable {
    public static let jobLength = 256
    public static let alertLimit = ListLimit.alerts

    public let state: PrinterStatus.State
    public let job: String?
    public let alerts: [String]

    public init(state: PrinterStatus.State, job: String?, alerts: [String]) {
        self.state = state
        self.job = job.map { String($0.prefix(Self.jobLength)) }
        var unique: [String] = []
        for code in alerts.prefix(Self.alertLimit) where !unique.contains(code) { unique.append(code) }
        self.alerts = unique
    }
}

extension PrinterStatus.State: Codable {}

extension PrinterStatus {
    /// The codes of the HMS alerts a notification may be about: all but the refusal of an unsigned
    /// command (`BambuAlert.isAuthorizationRefusal`), which is no printer fault.
    public var notifiedAlertCodes: [String] {
        alerts.filter { !$0.isAuthorizationRefusal }.map(\.code)
    }
}
