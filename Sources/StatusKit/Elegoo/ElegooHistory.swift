import Foundation
import StreamKit

/// An Elegoo Centauri Carbon's own history of prints, for the journal (the SDCP V3.0.0
/// specification, "Retrieve Historical Tasks" Cmd 320 and "Retrieve Task Details" Cmd 321;
/// PROTOCOLS.md §11): the task ids it remembers (`HistoryData`), then their details
/// (`HistoryDetailList`: `TaskId`, `TaskName`, `BeginTime`, `EndTime` in seconds since 1970,
/// `TaskStatus` 1 completed, 2 an error, 3 stopped). Asked once a run on a short connection of its
/// own (`ElegooConnection.asking`), closed at once: the journal asks a printer's history apart from
/// its status, and the printer's four connections leave room for one more for a moment. Every
/// value is checked: a task without a sane id, times or a status it documents is dropped, the ids
/// are cut to `ListLimit.historyJobs` and asked `batch` at a time, so no answer grows large.
enum ElegooHistory {
    /// Task ids asked in one Cmd 321.
    static let batch = 10
    /// How long each answer may take.
    static let wait: TimeInterval = 10

    /// The prints that ended which the printer at `endpoint` remembers, newest first.
    static func ask(_ endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [RememberedPrint] {
        try ElegooConnection.asking(endpoint, wait: wait, stop: stop) { ask throws(StatusFailure) in
            guard let listed = try ask(.history, [:]), listed.ack == 0 || listed.ack == nil else { return [] }
            let ids = Array(taskIDs(from: listed.data))
            var prints: [RememberedPrint] = []
            for start in stride(from: 0, to: ids.count, by: batch) {
                let chunk = Array(ids[start..<min(start + batch, ids.count)])
                guard let details = try ask(.historyDetails, ["Id": chunk]), details.ack == 0 || details.ack == nil else { break }
                prints += self.prints(from: details.data, asked: Set(chunk))
            }
            return prints.sorted { $0.ended > $1.ended }
        }
    }

    /// The task ids of a Cmd 320 answer's `Data`, hostile ones dropped, the first
    /// `ListLimit.historyJobs` kept.
    static func taskIDs(from data: [String: Any]) -> ArraySlice<String> {
        let ids = (data["HistoryData"] as? [Any] ?? []).compactMap(ElegooReport.taskID)
        return ListLimit.first(ids, ListLimit.historyJobs, of: "history jobs")
    }

    /// The tasks of a Cmd 321 answer's `Data` that ended, of the ids `asked` only.
    static func prints(from data: [String: Any], asked: Set<String>) -> [RememberedPrint] {
        let list = (data["HistoryDetailList"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        return ListLimit.first(list, asked.count, of: "history details").compactMap { task in
            guard let id = ElegooReport.taskID(task["TaskId"]), asked.contains(id) else { return nil }
            return print(task, id: id)
        }
    }

    /// One task that ended; nil for any value out of reason or a status not documented.
    private static func print(_ task: [String: Any], id: String) -> RememberedPrint? {
        guard let ending = ending(PrinterNumber.int(task["TaskStatus"], in: 0...99)),
              let start = PrinterNumber.double(task["BeginTime"], in: RememberedPrint.plausibleTimes),
              let end = PrinterNumber.double(task["EndTime"], in: start...RememberedPrint.plausibleTimes.upperBound) else { return nil }
        return RememberedPrint(jobID: id, job: ElegooReport.jobName(task["TaskName"]), started: Date(timeIntervalSince1970: start),
                               ended: Date(timeIntervalSince1970: end), ending: ending.ending, words: ending.words)
    }

    /// How a task of `TaskStatus` ended; nil for 0 ("other") and any number not documented.
    private static func ending(_ status: Int?) -> (ending: RememberedPrint.Ending, words: String?)? {
        switch status {
        case 1?: (.finished, nil)
        case 2?: (.failed, tr("The print stopped with an error"))
        case 3?: (.cancelled, nil)
        default: nil
        }
    }
}
