import Foundation

/// What a printer is doing, in the same words whatever it is (Bambu, Klipper, OctoPrint): what the
/// status strip, the tab, notifications and `layerwatch status` show. Nil fields were not reported.
public struct PrinterStatus: Equatable, Sendable {
    /// The few states a user tells apart at a glance. `cancelled` is a print someone stopped (from
    /// Layerwatch, another client or the printer's screen): no fault, so never `failed`.
    public enum State: String, Equatable, Sendable, CaseIterable {
        case idle, preparing, printing, paused, finished, failed, cancelled, offline
    }

    /// A printer on its way between two states, where it says so (an Elegoo printer's pausing,
    /// resuming and stopping): shown in its own words while `state` stays the one it is leaving.
    public enum Transition: String, Equatable, Sendable {
        case pausing, resuming, stopping
    }

    /// A heater's reading: where it is and, when heating, where it is going. Both in
    /// `PrinterNumber.celsius`: a heater whose reading is outside it has no reading.
    public struct Temperature: Equatable, Sendable {
        public let current: Double
        /// Nil when the printer did not say (or said something implausible); 0 means the heater is off.
        @InRange(PrinterNumber.celsius) public private(set) var target: Double? = nil

        public init?(current: Double, target: Double? = nil) {
            guard PrinterNumber.checked(current, in: PrinterNumber.celsius) != nil else { return nil }
            self.current = current
            self.target = target
        }

        /// The heater whose current and target readings are `current` and `target` as a printer sent
        /// them (JSON numbers or numeric strings); nil without a plausible current reading.
        public init?(reported current: Any?, target: Any?) {
            guard let value = PrinterNumber.double(current, in: PrinterNumber.celsius) else { return nil }
            self.init(current: value, target: PrinterNumber.double(target, in: PrinterNumber.celsius))
        }
    }

    public var state: State
    /// Set while the printer is pausing, resuming or stopping; nil otherwise or where it never says.
    public var transition: Transition?
    /// The print job's name (file name or Bambu's subtask name).
    public var job: String?
    /// The printer's own id of the print (Bambu's `task_id`, Moonraker's history `job_id`, Elegoo's
    /// `TaskId`, PrusaLink's `job.id`), where it
    /// has one: the same print seen again, after a restart or in the printer's history, is known by it.
    public var jobID: String?
    /// Per cent done, 0...100.
    @InRange(PrinterNumber.percent) public var progress: Double? = nil
    @InRange(PrinterNumber.layers) public var layer: Int? = nil
    @InRange(PrinterNumber.layers) public var totalLayers: Int? = nil
    /// Seconds the printer expects the job still needs (at most ten years).
    @InRange(PrinterNumber.seconds) public var timeLeft: TimeInterval? = nil
    /// Seconds the job has run so far, where the printer says (Creality's `printJobTime`).
    @InRange(PrinterNumber.seconds) public var elapsed: TimeInterval? = nil
    /// Millimetres of filament the print has used so far, where the printer says (Moonraker).
    @InRange(PrinterNumber.millimetres) public var filamentUsed: Double? = nil
    /// One per nozzle (H2D has two).
    public var nozzles: [Temperature]
    public var bed: Temperature?
    public var chamber: Temperature?
    /// Whether the chamber light is on, as the printer last reported it; nil for printers without
    /// one Layerwatch can switch.
    public var chamberLight: Bool?
    /// The printer's own words for a failure or pause (Klipper's message, Bambu's print error).
    public var errorText: String?
    /// Bambu's print error in words, with its page (`errorText` is its `summary`).
    public var printError: BambuAlert?
    /// Bambu HMS alerts, each once, in the printer's order.
    public var alerts: [BambuAlert]
    /// A Bambu printer whose firmware refuses unsigned print commands (its `fun` bit 0x20000000: LAN
    /// Only mode's Developer Mode is off). Reading status and the chamber light still work.
    public var needsDeveloperMode = false
    /// A Bambu printer's speed profile; nil for other printers or before it said.
    public var speed: PrintSpeed?
    /// The filament loaded (AMS trays, external spool, Spoolman's active spool); empty when unknown.
    public var filament = Filament()
    /// The job's thumbnail where the printer serves one (Moonraker, OctoPrint); nil before it came.
    public var thumbnail: JobThumbnail?

    public init(state: State = .idle, job: String? = nil, progress: Double? = nil, layer: Int? = nil,
                totalLayers: Int? = nil, timeLeft: TimeInterval? = nil, nozzles: [Temperature] = [],
                bed: Temperature? = nil, chamber: Temperature? = nil, chamberLight: Bool? = nil,
                errorText: String? = nil, printError: BambuAlert? = nil, alerts: [BambuAlert] = []) {
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
        self.printError = printError
        self.alerts = alerts
    }

    /// True while a job is under way (printing, paused or preparing).
    public var hasActiveJob: Bool { [.preparing, .printing, .paused].contains(state) }
}
