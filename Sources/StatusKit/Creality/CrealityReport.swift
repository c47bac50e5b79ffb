import Foundation
import StreamKit

/// What a Creality printer (K1, K2, Hi, Ender-3 V3 families) has told over its LAN websocket so far:
/// it pushes only the fields that changed (as Creality Print merges them key by key,
/// Connect3Dp's Research/Creality/CrealityK1C.md `setDataFromDevice`; ha_creality_ws's
/// ws_client.py keeps one merged dictionary the same way), so the fields Layerwatch reads are kept
/// across messages — only those, so a printer sending ever new keys grows nothing.
///
/// The fields (ha_creality_ws sensor.py and Erinell/Creality-K2-websocket src/Interfaces.ts):
/// `state`, `withSelfTest`, `printFileName` (a path), `printProgress` (per cent; `dProgress` on
/// some firmware), `layer`, `TotalLayer`, `printLeftTime` and `printJobTime` (seconds),
/// `nozzleTemp`/`targetNozzleTemp`, `bedTemp0`/`targetBedTemp0`, `boxTemp`/`targetBoxTemp` (the
/// chamber), `lightSw` (0/1) and `err` (`{"errcode": N, …}`, 0 without an error). Numbers may come
/// as strings (K2 temperatures: Interfaces.ts types `nozzleTemp` and `bedTemp0` as strings).
struct CrealityReport {
    static let fields: Set<String> = [
        "state", "withSelfTest", "printFileName", "printProgress", "dProgress", "layer", "TotalLayer",
        "printLeftTime", "printJobTime", "nozzleTemp", "targetNozzleTemp", "bedTemp0", "targetBedTemp0",
        "boxTemp", "targetBoxTemp", "lightSw", "err",
    ]

    private var values: [String: Any] = [:]

    /// Takes the known fields of one message, replacing what earlier messages said of them.
    mutating func merge(_ message: [String: Any]) {
        for (key, value) in message where Self.fields.contains(key) { values[key] = value }
    }

    /// Whether any field Layerwatch reads has come yet.
    var isEmpty: Bool { values.isEmpty }

    var status: PrinterStatus {
        let job = JSONValue.string(values["printFileName"]).flatMap { path in
            path.split(separator: "/").last.map(String.init)  // Creality Print shows the name after the last "/"
        }
        let progress = PrinterNumber.double(values["printProgress"] ?? values["dProgress"], in: PrinterNumber.percent)
        let number = PrinterNumber.int(values["state"], in: 0...99)
        var status = PrinterStatus(state: state(number, hasJob: job != nil, progress: progress))
        status.job = job
        if job != nil {
            status.progress = progress
            status.elapsed = PrinterNumber.double(values["printJobTime"], in: PrinterNumber.seconds)
        }
        status.layer = PrinterNumber.int(values["layer"], in: PrinterNumber.layers)
        status.totalLayers = PrinterNumber.int(values["TotalLayer"], in: PrinterNumber.layers).flatMap { $0 > 0 ? $0 : nil }
        if status.hasActiveJob { status.timeLeft = PrinterNumber.double(values["printLeftTime"], in: PrinterNumber.seconds) }
        status.nozzles = PrinterStatus.Temperature(reported: values["nozzleTemp"], target: values["targetNozzleTemp"]).map { [$0] } ?? []
        status.bed = .init(reported: values["bedTemp0"], target: values["targetBedTemp0"])
        status.chamber = .init(reported: values["boxTemp"], target: values["targetBoxTemp"])
        status.chamberLight = JSONValue.bool(values["lightSw"])
        if let code = PrinterNumber.int((values["err"] as? [String: Any])?["errcode"], in: PrinterNumber.code), code != 0,
           status.state != .cancelled {
            status.errorText = String(format: tr("Creality error code %ld"), code)
        }
        return status
    }

    /// The `state` number as the public integrations read it: 0 idle, 1 printing, 2 complete,
    /// 3 failed, 4 stopped (aborted), 5 paused, 6 pausing, 7 stopping, 8 restoring (a Home Assistant
    /// integration's STATE_MAP, "creality_lan" const.py; ha_creality_ws sensor.py agrees on 1, 4 and
    /// 5). A stopped print is cancelled, as Klipper's is; pausing as paused and
    /// stopping as still printing, as OctoPrint's "Pausing" and "Cancelling"; restoring (resuming)
    /// as paused until it prints. A self-test (`withSelfTest` 1–99) is preparing, and an idle
    /// printer still naming a job at 100 % has finished it (ha_creality_ws: "completed").
    private func state(_ number: Int?, hasJob: Bool, progress: Double?) -> PrinterStatus.State {
        if let test = PrinterNumber.int(values["withSelfTest"], in: PrinterNumber.percentInt), (1...99).contains(test) {
            return .preparing
        }
        switch number {
        case 1?, 7?: return .printing
        case 2?: return .finished
        case 3?: return .failed
        case 4?: return .cancelled
        case 5?, 6?, 8?: return .paused
        default: return hasJob && (progress ?? 0) >= 100 ? .finished : .idle
        }
    }
}
