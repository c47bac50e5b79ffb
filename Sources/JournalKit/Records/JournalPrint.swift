import Foundation

/// One print in the journal: which printer (its name at the time), the job, when it ran and how it
/// ended, and what was kept of it. What the History page, `layerwatch history` and the recorder
/// read and write.
public struct JournalPrint: Equatable, Sendable {
    /// The print's identity (`JournalPrint.key`): a print seen again is never a second row.
    public var key: String
    public var printerID: String
    public var printerName: String
    /// The camera's name or address, where the printer has one.
    public var camera: String?
    public var job: String?
    /// The printer's own id of the job (Moonraker's `job_id`, Bambu's `task_id`, PrusaLink's job id).
    public var printerJobID: String?
    public var started: Date
    public var ended: Date?
    public var result: PrintResult
    /// The printer's words for a failure.
    public var error: String?
    /// The last layer seen, of `totalLayers`.
    public var layer: Int?
    public var totalLayers: Int?
    /// Filament used, in millimetres, where the printer reports it.
    public var filamentUsed: Double?
    /// Taken from the printer's own history (it ended while Layerwatch was not running).
    public var fromPrinterHistory: Bool
    public var firstLayerPicture: URL?
    public var finalPicture: URL?
    /// Layerwatch sent its file and started it; `sentFile` names the file it sent.
    public var startedFromLayerwatch: Bool
    public var sentFile: String?

    public init(key: String, printerID: String, printerName: String, camera: String? = nil, job: String?,
                printerJobID: String? = nil, started: Date, ended: Date? = nil, result: PrintResult = .underway,
                error: String? = nil, layer: Int? = nil, totalLayers: Int? = nil, filamentUsed: Double? = nil,
                fromPrinterHistory: Bool = false, firstLayerPicture: URL? = nil, finalPicture: URL? = nil,
                startedFromLayerwatch: Bool = false, sentFile: String? = nil) {
        self.key = key
        self.printerID = printerID
        self.printerName = printerName
        self.camera = camera
        self.job = job
        self.printerJobID = printerJobID
        self.started = started
        self.ended = ended
        self.result = result
        self.error = error
        self.layer = layer
        self.totalLayers = totalLayers
        self.filamentUsed = filamentUsed
        self.fromPrinterHistory = fromPrinterHistory
        self.firstLayerPicture = firstLayerPicture
        self.finalPicture = finalPicture
        self.startedFromLayerwatch = startedFromLayerwatch
        self.sentFile = sentFile
    }

    /// A print's identity: the printer's own job id where it has one, else printer + job + start
    /// (to the second).
    public static func key(printerID: String, printerJobID: String?, job: String?, started: Date) -> String {
        if let printerJobID { return "\(printerID)/job-id/\(printerJobID)" }
        return "\(printerID)/\(job ?? "")/\(Int64(started.timeIntervalSince1970.rounded(.down)))"
    }

    /// Whether `job`, as a printer names a print, is the print of the file named `file` as it was
    /// sent: the same name once folders, letter case and the slicers' extensions are left out
    /// (Bambu names a print by its plate's name, without `.gcode.3mf`; Moonraker by its path).
    public static func job(_ job: String?, isFile file: String) -> Bool {
        guard let job else { return false }
        let bare = { (name: String) -> String in
            var base = (name.split(separator: "/").last.map(String.init) ?? name).lowercased()
            // In this order, `.gcode.3mf` loses both.
            for suffix in [".3mf", ".gcode", ".bgcode"] where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
            return base
        }
        let sent = bare(file)
        return !sent.isEmpty && bare(job) == sent
    }

    /// How long it ran, once it ended.
    public var duration: TimeInterval? { ended.map { $0.timeIntervalSince(started) } }
}
