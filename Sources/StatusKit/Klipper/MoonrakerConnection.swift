import Foundation
import StreamKit

/// Klipper's status through Moonraker's HTTP API: one query of the objects the status strip needs
/// every `HTTPStatusAPI.pollInterval` (the documented `printer/objects/query`; polling at 2 s is what
/// Mainsail's own fallback does, and far from the 1 s floor the printer's host deserves), and the
/// active Spoolman spool where the host has Spoolman (`SpoolmanWatch`), and the job's thumbnail
/// once per job (`JobThumbnailWatch`): the largest the file's metadata lists. A job under way
/// carries its history `job_id`, asked once per job (`MoonrakerHistory`), so the journal keys the
/// live print as the history will remember it.
final class MoonrakerConnection: StatusConnection, @unchecked Sendable {
    static let queryPath = "/printer/objects/query?print_stats&display_status&virtual_sdcard&heater_bed&extruder"
    private let api: HTTPStatusAPI
    private let spoolman = SpoolmanWatch()

    init(baseURL: URL, apiKey: String?) {
        api = HTTPStatusAPI(baseURL: baseURL, key: apiKey.map { ("X-Api-Key", $0) })
    }

    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure) {
        var isLive = false
        var thumbnails = JobThumbnailWatch()
        var underWay: (job: String, id: String?)?
        while !stop.isStopped {
            let answer: [String: Any]
            do {
                answer = try api.object(Self.queryPath, stop: stop)
            } catch {
                if stop.isStopped { return }
                throw StatusFailure(error.failure)
            }
            guard let status = ((answer["result"] as? [String: Any])?["status"] as? [String: Any]) else {
                throw .protocolError(tr("Moonraker's answer has no printer status"))
            }
            if !isLive {
                isLive = true
                live()
            }
            var current = Self.status(from: status)
            current.filament = spoolman.filament(from: api, stop: stop)
            if let job = current.job, current.hasActiveJob {
                if underWay?.job != job {
                    let newest = try? api.object(MoonrakerHistory.path(limit: 1), stop: stop)
                    underWay = (job, newest.flatMap { MoonrakerHistory.jobUnderWay(job, in: $0) })
                }
                current.jobID = underWay?.id
            } else {
                underWay = nil
            }
            thumbnails.report(current, stop: stop, to: report) { job in Self.thumbnail(of: job, from: api, stop: stop) }
            stop.wait(seconds: HTTPStatusAPI.pollInterval)
        }
    }

    /// Klipper has no chamber light Layerwatch knows how to switch.
    func setChamberLight(_ on: Bool) {}

    /// Moonraker's `POST /printer/print/pause|resume|cancel`; Klipper has no speed profiles.
    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        switch command {
        case .pause: api.command("/printer/print/pause", json: [:], answer: answer)
        case .resume: api.command("/printer/print/resume", json: [:], answer: answer)
        case .stop: api.command("/printer/print/cancel", json: [:], answer: answer)
        case .speed: answer(.refused(tr("Klipper has no speed profiles")))
        case .printFile: answer(.refused(PrintCommandText.startsWhenSent))
        }
    }

    /// The stop signal already interrupts its requests and its wait between polls.
    func interrupt() {}

    /// `job`'s largest thumbnail: its metadata (`/server/files/metadata`) lists them, each beside the
    /// file (`relative_path`); nil when it lists none or one cannot be read.
    static func thumbnail(of job: String, from api: HTTPStatusAPI, stop: StopSignal) -> Data? {
        let query = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&+=#?"))
        guard let name = job.addingPercentEncoding(withAllowedCharacters: query),
              let metadata = try? api.object("/server/files/metadata?filename=" + name, stop: stop),
              let path = thumbnailPath(metadata, job: job) else { return nil }
        return try? api.data(path, limit: JobThumbnailWatch.maximumBytes, stop: stop)
    }

    /// Where the largest thumbnail of the metadata's `result.thumbnails` is served: under
    /// `/server/files/gcodes/`, in the job's folder; nil without one (or with a path leaving it).
    static func thumbnailPath(_ metadata: [String: Any], job: String) -> String? {
        let listed = ((metadata["result"] as? [String: Any])?["thumbnails"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        let largest = listed.compactMap { entry -> (pixels: Int, path: String)? in
            guard let path = JSONValue.string(entry["relative_path"]), !path.isEmpty else { return nil }
            let side = { (key: String) in PrinterNumber.int(entry[key], in: 0...100_000) ?? 0 }
            return (side("width") * side("height"), path)
        }.max { $0.pixels < $1.pixels }
        guard let relative = largest?.path else { return nil }
        let folder = (job as NSString).deletingLastPathComponent
        let path = folder.isEmpty ? relative : folder + "/" + relative
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains(".."),
              let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return nil }
        return "/server/files/gcodes/" + encoded
    }

    /// The status in Moonraker's `result.status` object.
    static func status(from objects: [String: Any]) -> PrinterStatus {
        let stats = objects["print_stats"] as? [String: Any] ?? [:]
        let display = objects["display_status"] as? [String: Any] ?? [:]
        let card = objects["virtual_sdcard"] as? [String: Any] ?? [:]
        var status = PrinterStatus(state: state(JSONValue.string(stats["state"])))
        status.job = JSONValue.string(stats["filename"]).flatMap { $0.isEmpty ? nil : $0 }
        let fraction = PrinterNumber.double(display["progress"], in: PrinterNumber.fraction)
            ?? PrinterNumber.double(card["progress"], in: PrinterNumber.fraction)
        if status.job != nil, let fraction { status.progress = fraction * 100 }
        if status.job != nil { status.filamentUsed = PrinterNumber.double(stats["filament_used"], in: PrinterNumber.millimetres) }
        let info = stats["info"] as? [String: Any]
        status.layer = PrinterNumber.int(info?["current_layer"], in: PrinterNumber.layers)
        status.totalLayers = PrinterNumber.int(info?["total_layer"], in: PrinterNumber.layers).flatMap { $0 > 0 ? $0 : nil }
        // Mainsail's "file" estimate: the time printed so far, scaled by what is left (over ten
        // years, as from a duration near the limit at a small fraction, is unknown).
        if status.state == .printing || status.state == .paused,
           let printed = PrinterNumber.double(stats["print_duration"], in: PrinterNumber.seconds),
           let fraction, fraction > 0.001, printed > 0 {
            status.timeLeft = printed / fraction - printed
        }
        status.nozzles = heater(objects["extruder"]).map { [$0] } ?? []
        status.bed = heater(objects["heater_bed"])
        if let message = JSONValue.string(stats["message"]), !message.isEmpty,
           [.failed, .paused].contains(status.state) {
            status.errorText = message
        }
        return status
    }

    /// Klipper's `print_stats.state`.
    private static func state(_ text: String?) -> PrinterStatus.State {
        switch text {
        case "printing": return .printing
        case "paused": return .paused
        case "complete": return .finished
        case "error": return .failed
        case "cancelled": return .cancelled
        default: return .idle
        }
    }

    private static func heater(_ value: Any?) -> PrinterStatus.Temperature? {
        guard let object = value as? [String: Any] else { return nil }
        return .init(reported: object["temperature"], target: object["target"])
    }
}
