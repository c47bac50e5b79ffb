import Foundation
import StreamKit

/// What an Elegoo Centauri Carbon has told of itself so far over SDCP V3 (../shared/PROTOCOLS.md
/// §11; the SDCP V3.0.0 specification, cbd-tech/SDCP-Smart-Device-Control-Protocol-V3.0.0;
/// WalkerFrederick/sdcp-centauri-carbon README "Status Message Example"). The printer pushes
/// `{"Status":{…},"MainboardID":…,"Topic":"sdcp/status/<MainboardID>"}` about once a second; the
/// fields Layerwatch reads are merged key by key (and `PrintInfo`'s within it), so a firmware that
/// sends only what changed reads the same, and a printer sending ever new keys grows nothing:
/// `TempOfNozzle`/`TempTargetNozzle`, `TempOfHotbed`/`TempTargetHotbed`, `TempOfBox`/`TempTargetBox`,
/// `LightStatus.SecondLight` (the chamber light) and `PrintInfo{Status, CurrentLayer, TotalLayer,
/// CurrentTicks, TotalTicks (seconds), Filename, TaskId, Progress (per cent), ErrorNumber}`.
///
/// After a stop the firmware blanks `Filename` and `TaskId` while it still reports the print's end
/// (stopped, complete): the job it last named, and its `TaskId`, are kept until the printer is
/// idle, so the end of a print is never read as another print beginning. The `TaskId` is the
/// print's `jobID`, the key its history (`ElegooHistory`) names it by too.
struct ElegooReport {
    static let statusFields: Set<String> = [
        "TempOfNozzle", "TempTargetNozzle", "TempOfHotbed", "TempTargetHotbed", "TempOfBox", "TempTargetBox", "LightStatus",
    ]
    static let printFields: Set<String> = [
        "Status", "CurrentLayer", "TotalLayer", "CurrentTicks", "TotalTicks", "Filename", "TaskId", "Progress", "ErrorNumber",
    ]
    /// The most characters of a job name kept.
    static let maximumJob = 256

    private var values: [String: Any] = [:]
    private var info: [String: Any] = [:]
    /// The job the printer last named, and its task id, kept while it reports the same print
    /// without them.
    private var job: String?
    private var taskID: String?

    /// Whether any field Layerwatch reads has come yet.
    var isEmpty: Bool { values.isEmpty && info.isEmpty }

    /// Takes a status message's known fields; false when `message` is no status (an answer, a
    /// `pong`).
    mutating func merge(_ message: [String: Any]) -> Bool {
        guard let status = message["Status"] as? [String: Any] else { return false }
        for (key, value) in status where Self.statusFields.contains(key) { values[key] = value }
        if let printInfo = status["PrintInfo"] as? [String: Any] {
            for (key, value) in printInfo where Self.printFields.contains(key) { info[key] = value }
        }
        let named = Self.jobName(info["Filename"])
        let number = PrinterNumber.int(info["Status"], in: 0...99)
        if let named {
            job = named
            taskID = Self.taskID(info["TaskId"])
        } else if number == nil || number == 0 {
            (job, taskID) = (nil, nil)
        }
        return true
    }

    /// The job's name in a file's path (`/local/benchy.gcode`: after the last "/"), cut to
    /// `maximumJob`; nil for none or blanks.
    static func jobName(_ raw: Any?) -> String? {
        guard let name = JSONValue.string(raw)?.split(separator: "/").last.map({ String($0.prefix(maximumJob)) }),
              !name.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return name
    }

    /// A task id as the printer gives them (a UUID, or hexadecimal digits): letters, digits and
    /// hyphens, at most 64; nil for anything else (blank after a stop, or hostile).
    static func taskID(_ raw: Any?) -> String? {
        guard let id = JSONValue.string(raw), (1...64).contains(id.count),
              id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return id
    }

    var status: PrinterStatus {
        let number = PrinterNumber.int(info["Status"], in: 0...99)
        var status = PrinterStatus(state: Self.state(number, hasJob: job != nil))
        status.transition = Self.transition(number)
        if status.state != .idle {
            status.job = job
            status.jobID = taskID
            status.progress = PrinterNumber.double(info["Progress"], in: PrinterNumber.percent)
            status.elapsed = PrinterNumber.double(info["CurrentTicks"], in: PrinterNumber.seconds)
            status.layer = PrinterNumber.int(info["CurrentLayer"], in: PrinterNumber.layers)
            status.totalLayers = PrinterNumber.int(info["TotalLayer"], in: PrinterNumber.layers).flatMap { $0 > 0 ? $0 : nil }
        }
        if status.hasActiveJob, let total = PrinterNumber.double(info["TotalTicks"], in: PrinterNumber.seconds),
           let current = PrinterNumber.double(info["CurrentTicks"], in: PrinterNumber.seconds) {
            status.timeLeft = max(0, total - current)
        }
        status.nozzles = PrinterStatus.Temperature(reported: values["TempOfNozzle"], target: values["TempTargetNozzle"]).map { [$0] } ?? []
        status.bed = .init(reported: values["TempOfHotbed"], target: values["TempTargetHotbed"])
        status.chamber = .init(reported: values["TempOfBox"], target: values["TempTargetBox"])
        status.chamberLight = JSONValue.bool((values["LightStatus"] as? [String: Any])?["SecondLight"])
        if let code = PrinterNumber.int(info["ErrorNumber"], in: PrinterNumber.code), code != 0, status.state != .idle {
            status.errorText = Self.error(code)
        }
        return status
    }

    /// `PrintInfo.Status` as PROTOCOLS.md §11 lists it: 0 idle, 5 pausing, 6 paused, 7 stopping,
    /// 8 stopped, 9 complete, 12 resuming, 13 printing. Pausing and stopping are still printing
    /// (the command is not done yet), resuming still paused, each with its `transition`; a stopped
    /// print is cancelled. The other numbers (homing, file checking, preheating, levelling) come
    /// before a print prints: preparing.
    private static func state(_ number: Int?, hasJob: Bool) -> PrinterStatus.State {
        switch number {
        case nil, 0?: return .idle
        case 5?, 7?, 13?: return .printing
        case 6?, 12?: return .paused
        case 8?: return .cancelled
        case 9?: return .finished
        default: return .preparing
        }
    }

    private static func transition(_ number: Int?) -> PrinterStatus.Transition? {
        switch number {
        case 5?: return .pausing
        case 7?: return .stopping
        case 12?: return .resuming
        default: return nil
        }
    }

    /// `PrintInfo.ErrorNumber` in words (the SDCP specification's print errors: 1 the file's MD5
    /// check failed, 2 the file could not be read, 3 resolution, 4 format, 5 machine model mismatch).
    static func error(_ code: Int) -> String {
        switch code {
        case 1: return tr("Elegoo: the print file failed its check (it may be damaged)")
        case 2: return tr("Elegoo: the print file could not be read")
        case 3, 4, 5: return tr("Elegoo: the print file was not made for this printer")
        default: return String(format: tr("Elegoo error code %ld"), code)
        }
    }
}
