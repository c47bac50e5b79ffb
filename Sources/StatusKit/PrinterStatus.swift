import Foundation

/// What a printer is doing, in the same words whatever it is (Bambu, Klipper, OctoPrint): what the
/// status strip, the tab, notifications and `layerwatch status` show. Nil fields were not reported.
public struct PrinterStatus: Equatable, Sendable {
    /// The few states a user tells apart at a glance.
    public enum State: String, Equatable, Sendable, CaseIterable {
        case idle, preparing, printing, paused, finished, failed, offline
    }

    /// A heater's reading: where it is and, when heating, where it is going.
    public struct Temperature: Equatable, Sendable {
        public var current: Double
        /// Nil when the printer did not say; 0 means the heater is off.
        public var target: Double?

        public init(current: Double, target: Double? = nil) {
            self.current = current
            self.target = target
        }
    }

    public var state: State
    /// The print job's name (file name or Bambu's subtask name).
    public var job: String?
    /// Per cent done, 0...100.
    public var progress: Double?
    public var layer: Int?
    public var totalLayers: Int?
    /// Seconds the printer expects the job still needs.
    public var timeLeft: TimeInterval?
    /// One per nozzle (H2D has two).
    public var nozzles: [Temperature]
    public var bed: Temperature?
    public var chamber: Temperature?
    /// Whether the chamber light is on, as the printer last reported it; nil for printers without
    /// one Layerwatch can switch.
    public var chamberLight: Bool?
    /// The printer's own words for a failure or pause (Klipper's message, Bambu's print error).
    public var errorText: String?
    /// Bambu HMS alerts, as the codes Bambu's wiki lists (`0300_0100_0001_0007`).
    public var alerts: [String]

    public init(state: State = .idle, job: String? = nil, progress: Double? = nil, layer: Int? = nil,
                totalLayers: Int? = nil, timeLeft: TimeInterval? = nil, nozzles: [Temperature] = [],
                bed: Temperature? = nil, chamber: Temperature? = nil, chamberLight: Bool? = nil,
                errorText: String? = nil, alerts: [String] = []) {
        self.state = state
        self.job = job
        self.progress = progress
        self.layer = layer
        self.totalLayers = totalLayers
        self.timeLeft = timeLeft
        self.nozzles = nozzles
        self.bed = bed
        self.chamber = chamber
        self.chamberLight = chamberLight
        self.errorText = errorText
        self.alerts = alerts
    }

    /// True while a job is under way (printing, paused or preparing).
    public var hasActiveJob: Bool { [.preparing, .printing, .paused].contains(state) }
}
