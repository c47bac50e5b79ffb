import Foundation
import StreamKit

/// Moonraker's job history (`/server/history/list`): the prints that ended, for the journal, and
/// the id of the job under way, so the live print and its history entry are one print. Every
/// value is checked: a job without a sane id, times or status is dropped, the list is cut to
/// `ListLimit.historyJobs`.
enum MoonrakerHistory {
    /// The newest `limit` jobs first.
    static func path(limit: Int) -> String {
        "/server/history/list?limit=\(limit)&order=desc"
    }

    /// The jobs of `answer` that ended, newest first as listed.
    static func prints(from answer: [String: Any]) -> [RememberedPrint] {
        jobs(of: answer).compactMap(print(from:))
    }

    /// The `job_id` of the job under way of file `job`, if the history's newest job is it.
    static func jobUnderWay(_ job: String, in answer: [String: Any]) -> String? {
        guard let newest = jobs(of: answer).first, JSONValue.string(newest["status"]) == "in_progress",
              JSONValue.string(newest["filename"]) == job else { return nil }
        return jobID(newest["job_id"])
    }

    /// The history of the printer at `api`: its last `ListLimit.historyJobs` jobs that ended.
    static func ask(_ api: HTTPStatusAPI, stop: StopSignal?) throws(StatusFailure) -> [RememberedPrint] {
        do {
            return prints(from: try api.object(path(limit: ListLimit.historyJobs), stop: stop))
        } catch {
            throw StatusFailure(error.failure)
        }
    }

    private static func jobs(of answer: [String: Any]) -> ArraySlice<[String: Any]> {
        let list = ((answer["result"] as? [String: Any])?["jobs"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        return ListLimit.first(list, ListLimit.historyJobs, of: "history jobs")
    }

    /// One job that ended; nil for one under way or any value out of reason.
    private static func print(from job: [String: Any]) -> RememberedPrint? {
        guard let id = jobID(job["job_id"]), let ending = ending(JSONValue.string(job["status"])),
              let start = PrinterNumber.double(job["start_time"], in: RememberedPrint.plausibleTimes),
              let end = PrinterNumber.double(job["end_time"], in: start...RememberedPrint.plausibleTimes.upperBound) else { return nil }
        let file = JSONValue.string(job["filename"]).flatMap { $0.isEmpty || $0.utf8.count > 1024 ? nil : $0 }
        return RememberedPrint(jobID: id, job: file, started: Date(timeIntervalSince1970: start), ended: Date(timeIntervalSince1970: end),
                               ending: ending.ending, words: ending.words,
                               filamentUsed: PrinterNumber.double(job["filament_used"], in: PrinterNumber.millimetres))
    }

    /// Moonraker's ids are strings of hexadecimal digits (`000001`); anything else is no id.
    private static func jobID(_ raw: Any?) -> String? {
        guard let id = raw as? String, (1...32).contains(id.count), id.allSatisfy(\.isHexDigit) else { return nil }
        return id
    }

    /// How a job of Moonraker's `status` ended, and the words of a failure; nil while under way
    /// or for a status it does not document.
    private static func ending(_ status: String?) -> (ending: RememberedPrint.Ending, words: String?)? {
        switch status {
        case "completed": (.finished, nil)
        case "cancelled": (.cancelled, nil)
        case "error": (.failed, tr("The print stopped with an error"))
        case "klippy_shutdown": (.failed, tr("Klipper shut down during the print"))
        case "klippy_disconnect": (.failed, tr("Klipper disconnected during the print"))
        case "interrupted": (.failed, tr("The print was interrupted"))
        default: nil
        }
    }
}
