import Foundation
import StreamKit

/// OctoPrint's status through its REST API: `/api/job` and `/api/printer` every
/// `HTTPStatusAPI.pollInterval`, with the API key. `/api/printer` answers 409 while no printer is
/// connected: the job's state still stands, without temperatures. A cancel reads as cancelled
/// (`OctoPrintCancelWatch`), though OctoPrint then says only "Operational". The job's thumbnail,
/// once per job, is the `thumbnail` the PrusaSlicer Thumbnails plugin adds to the file's entry.
final class OctoPrintConnection: StatusConnection, @unchecked Sendable {
    private let api: HTTPStatusAPI

    init(baseURL: URL, apiKey: String) {
        api = HTTPStatusAPI(baseURL: baseURL, key: ("X-Api-Key", apiKey))
    }

    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure) {
        var isLive = false
        var cancels = OctoPrintCancelWatch()
        var thumbnails = JobThumbnailWatch()
        while !stop.isStopped {
            let job: [String: Any]
            var printer: [String: Any]?
            do {
                job = try api.object("/api/job", stop: stop)
                do {
                    printer = try api.object("/api/printer", stop: stop)
                } catch where error.otherClientError {
                    printer = nil
                }
            } catch {
                if stop.isStopped { return }
                throw StatusFailure(error.failure)
            }
            if !isLive {
                isLive = true
                live()
            }
            let file = (job["job"] as? [String: Any])?["file"] as? [String: Any]
            thumbnails.report(cancels.resolve(Self.status(job: job, printer: printer)), stop: stop, to: report) { _ in
                Self.thumbnail(of: file, from: api, stop: stop)
            }
            stop.wait(seconds: HTTPStatusAPI.pollInterval)
        }
    }

    /// OctoPrint has no chamber light Layerwatch knows how to switch.
    func setChamberLight(_ on: Bool) {}

    /// OctoPrint's job command, `POST /api/job` (`pause` with its `action`, or `cancel`); OctoPrint
    /// has no speed profiles.
    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        switch command {
        case .pause: api.command("/api/job", json: ["command": "pause", "action": "pause"], answer: answer)
        case .resume: api.command("/api/job", json: ["command": "pause", "action": "resume"], answer: answer)
        case .stop: api.command("/api/job", json: ["command": "cancel"], answer: answer)
        case .speed: answer(.refused(tr("OctoPrint has no speed profiles")))
        case .printFile: answer(.refused(PrintCommandText.startsWhenSent))
        }
    }

    /// The stop signal already interrupts its requests and its wait between polls.
    func interrupt() {}

    /// The thumbnail of `file` (`/api/job`'s `job.file`, stored in OctoPrint): the `thumbnail` address
    /// its entry in `/api/files/local/` has where the PrusaSlicer Thumbnails plugin runs; nil
    /// without one, or when it cannot be read.
    static func thumbnail(of file: [String: Any]?, from api: HTTPStatusAPI, stop: StopSignal) -> Data? {
        guard JSONValue.string(file?["origin"]) == "local", let path = JSONValue.string(file?["path"]), !path.isEmpty,
              let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
              let entry = try? api.object("/api/files/local/" + encoded, stop: stop),
              let address = JSONValue.string(entry["thumbnail"]), !address.isEmpty else { return nil }
        return try? api.data(address, limit: JobThumbnailWatch.maximumBytes, stop: stop)
    }

    /// The status in `/api/job`'s and (when a printer is connected) `/api/printer`'s answers.
    static func status(job: [String: Any], printer: [String: Any]?) -> PrinterStatus {
        let progress = job["progress"] as? [String: Any] ?? [:]
        let file = (job["job"] as? [String: Any])?["file"] as? [String: Any]
        let completion = PrinterNumber.double(progress["completion"], in: PrinterNumber.percent)
        var status = PrinterStatus(state: state(JSONValue.string(job["state"]) ?? "", completion: completion))
        status.job = (JSONValue.string(file?["display"]) ?? JSONValue.string(file?["name"])).flatMap { $0.isEmpty ? nil : $0 }
        status.progress = completion
        if status.hasActiveJob { status.timeLeft = PrinterNumber.double(progress["printTimeLeft"], in: PrinterNumber.seconds) }
        if let error = JSONValue.string(job["error"]), !error.isEmpty { status.errorText = error }
        let temperatures = printer?["temperature"] as? [String: Any] ?? [:]
        let tools = temperatures.keys.filter { $0.hasPrefix("tool") }.sorted()
        status.nozzles = ListLimit.first(tools, ListLimit.nozzles, of: "nozzles").compactMap { heater(temperatures[$0]) }
        status.bed = heater(temperatures["bed"])
        status.chamber = heater(temperatures["chamber"])
        return status
    }

    /// OctoPrint's state text (`Printing`, `Paused`, `Operational`, `Offline after error: …`). A job
    /// at 100 % on an operational printer has finished.
    private static func state(_ text: String, completion: Double?) -> PrinterStatus.State {
        let lower = text.lowercased()
        if lower.hasPrefix("printing") || lower.hasPrefix("finishing") || lower.hasPrefix("cancelling") { return .printing }
        if lower.hasPrefix("paus") || lower.hasPrefix("resuming") { return .paused }
        if lower.hasPrefix("starting") { return .preparing }
        if lower.contains("error") { return .failed }
        if lower.hasPrefix("offline") || lower.hasPrefix("closed") || lower.isEmpty { return .offline }
        if lower.hasPrefix("operational") || lower.hasPrefix("ready") {
            return (completion ?? 0) >= 100 ? .finished : .idle
        }
        return .idle
    }

    private static func heater(_ value: Any?) -> PrinterStatus.Temperature? {
        guard let object = value as? [String: Any] else { return nil }
        return .init(reported: object["actual"], target: object["target"])
    }
}
