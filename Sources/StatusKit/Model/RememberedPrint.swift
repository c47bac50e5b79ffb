import Foundation

/// A print that ended, as the printer's own history remembers it (Moonraker's job history, an Elegoo's task history): what
/// the journal takes for prints that ended while Layerwatch was not running. Family-neutral, so the
/// journal asks any printer through `StatusEndpoint.printerHistory(stop:)`.
public struct RememberedPrint: Equatable, Sendable {
    /// How it ended.
    public enum Ending: Equatable, Sendable {
        case finished, failed, cancelled
    }

    /// The printer's own id of the job (Moonraker's `job_id`, Elegoo's `TaskId`).
    public let jobID: String
    public let job: String?
    public let started: Date
    public let ended: Date
    public let ending: Ending
    /// Why it failed, in words; nil unless it failed.
    public let words: String?
    /// Filament used, in millimetres, where the printer reports it.
    public let filamentUsed: Double?

    /// The times a printer's history may name: after 2000 and before 2200, as seconds since 1970.
    static let plausibleTimes: ClosedRange<Double> = 946_684_800...7_258_118_400

    public init(jobID: String, job: String?, started: Date, ended: Date, ending: Ending, words: String? = nil, filamentUsed: Double? = nil) {
        self.jobID = jobID
        self.job = job
        self.started = started
        self.ended = ended
        self.ending = ending
        self.words = words
        self.filamentUsed = filamentUsed
    }
}
