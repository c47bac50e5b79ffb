import Foundation
import StreamKit

/// What a Prusa printer (MK4, XL, Core One, MINI) says through PrusaLink in its Buddy firmware, read
/// from one poll: `GET /api/v1/status` and, while it names a job, `GET /api/v1/job` (PrusaLink's
/// OpenAPI spec, prusa3d/Prusa-Link-Web spec/openapi.yaml; `../shared/PROTOCOLS.md` §12).
///
/// `status`: `printer.state` (IDLE, BUSY, PRINTING, PAUSED, FINISHED, STOPPED, ERROR, ATTENTION,
/// READY), `printer.temp_nozzle`/`target_nozzle`, `temp_bed`/`target_bed`, `printer.status_printer
/// .message` (the printer's words for what it is doing), and `job.id`, `job.progress` (per cent),
/// `job.time_remaining` and `job.time_printing` (seconds). `job`: `file.display_name` (the long
/// name; `file.name` is the 8.3 name on the USB stick) and `file.refs.thumbnail`
/// (`/thumb/l/usb/NAME`, a PNG).
struct PrusaLinkReport {
    let status: [String: Any]
    let job: [String: Any]?

    private var printer: [String: Any] { status["printer"] as? [String: Any] ?? [:] }
    private var statusJob: [String: Any] { status["job"] as? [String: Any] ?? [:] }
    private var file: [String: Any] { job?["file"] as? [String: Any] ?? [:] }

    /// The job PrusaLink reports, whose id the job commands name; nil without one.
    var jobID: Int? { PrinterNumber.int(statusJob["id"] ?? job?["id"], in: 0...Int(Int32.max)) }

    /// The job's large thumbnail, a path under `/thumb/` on the printer; nil without one.
    var thumbnailPath: String? {
        let refs = file["refs"] as? [String: Any]
        guard let path = JSONValue.string(refs?["thumbnail"]), path.hasPrefix("/thumb/"), path.utf8.count <= 1024 else { return nil }
        return path
    }

    var printerStatus: PrinterStatus {
        let state = JSONValue.string(printer["state"])?.uppercased() ?? ""
        var status = PrinterStatus(state: Self.state(state))
        if let jobID {
            status.jobID = String(jobID)
            let name = JSONValue.string(file["display_name"]) ?? JSONValue.string(file["name"])
            status.job = name.flatMap { $0.isEmpty ? nil : String($0.prefix(PrintMark.jobLength)) }
            status.progress = PrinterNumber.double(statusJob["progress"] ?? job?["progress"], in: PrinterNumber.percent)
            status.elapsed = PrinterNumber.double(statusJob["time_printing"] ?? job?["time_printing"], in: PrinterNumber.seconds)
            if status.hasActiveJob {
                status.timeLeft = PrinterNumber.double(statusJob["time_remaining"] ?? job?["time_remaining"], in: PrinterNumber.seconds)
            }
        }
        status.nozzles = PrinterStatus.Temperature(reported: printer["temp_nozzle"], target: printer["target_nozzle"]).map { [$0] } ?? []
        status.bed = .init(reported: printer["temp_bed"], target: printer["target_bed"])
        status.errorText = errorText(state)
        return status
    }

    /// The states PrusaLink names, in Layerwatch's: READY (set ready for the next print) is idle;
    /// BUSY (homing, calibrating, loading filament) is preparing; STOPPED is a print someone
    /// stopped, so cancelled; ATTENTION (the printer waits for someone at its screen: a filament
    /// runout, a crash, a question) holds the print, so it is paused, with the reason in words so
    /// its notification asks for the user — no failure.
    private static func state(_ text: String) -> PrinterStatus.State {
        switch text {
        case "PRINTING": return .printing
        case "PAUSED", "ATTENTION": return .paused
        case "BUSY": return .preparing
        case "FINISHED": return .finished
        case "STOPPED": return .cancelled
        case "ERROR": return .failed
        default: return .idle  // IDLE, READY, and a state this version does not know
        }
    }

    /// Why the printer wants someone (ATTENTION) or failed (ERROR), with its own message when it
    /// gave one; nil otherwise.
    private func errorText(_ state: String) -> String? {
        let said = JSONValue.string((printer["status_printer"] as? [String: Any])?["message"])
            .map { $0.split(whereSeparator: \.isNewline).first.map(String.init) ?? "" }
            .map { TerminalText.safe(String($0.prefix(200))).trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.isEmpty ? nil : $0 }
        switch state {
        case "ATTENTION":
            return said.map { String(format: tr("The printer needs you: %@ — see its screen."), $0) }
                ?? tr("The printer needs you — see its screen.")
        case "ERROR":
            return said.map { String(format: tr("The printer reports an error: %@"), $0) }
                ?? tr("The printer reports an error — see its screen.")
        default:
            return nil
        }
    }
}
