import Foundation
import StreamKit

/// A Bambu printer's `print` object as the reports built it up. X1 printers send it whole; P1 and A1
/// printers send only what changed, so every report is merged into what came before (objects key by
/// key, anything else replaced) and the status is read from the merged whole.
struct BambuReport {
    private(set) var fields: [String: Any] = [:]

    /// Merges one report's payload. Only `push_status` reports (or a report without a command) carry
    /// status; command answers and other messages are skipped. False when the payload holds no status.
    mutating func merge(payload: [String: Any]) -> Bool {
        guard let print = payload["print"] as? [String: Any] else { return false }
        if let command = print["command"] as? String, command != "push_status" { return false }
        fields = Self.merged(fields, print)
        return true
    }

    private static func merged(_ base: [String: Any], _ update: [String: Any]) -> [String: Any] {
        var result = base
        for (key, value) in update {
            if let object = value as? [String: Any], let existing = result[key] as? [String: Any] {
                result[key] = merged(existing, object)
            } else {
                result[key] = value
            }
        }
        return result
    }

    /// The printer's status as the merged report says it.
    var status: PrinterStatus {
        var status = PrinterStatus(state: state)
        status.job = JSONValue.string(fields["subtask_name"]).flatMap { $0.isEmpty ? nil : $0 }
        status.progress = PrinterNumber.double(fields["mc_percent"], in: PrinterNumber.percent)
        status.timeLeft = PrinterNumber.double(fields["mc_remaining_time"], in: PrinterNumber.minutes).map { $0 * 60 }
        status.layer = PrinterNumber.int(fields["layer_num"], in: PrinterNumber.layers)
        status.totalLayers = PrinterNumber.int(fields["total_layer_num"], in: PrinterNumber.layers).flatMap { $0 > 0 ? $0 : nil }
        readTemperatures(into: &status)
        status.chamberLight = chamberLight
        status.alerts = alerts
        status.filament = BambuFilament.filament(in: fields)
        if let error = PrinterNumber.int(fields["print_error"], in: PrinterNumber.code), error != 0 {
            status.errorText = String(format: tr("Printer error %@"), Self.code(UInt32(error)))
        }
        return status
    }

    private var state: PrinterStatus.State {
        switch JSONValue.string(fields["gcode_state"])?.uppercased() {
        case "RUNNING": return .printing
        case "PAUSE": return .paused
        case "FINISH": return .finished
        case "FAILED": return .failed
        case "PREPARE", "SLICING", "INIT": return .preparing
        case "OFFLINE": return .offline
        default: return .idle
        }
    }

    /// Newer firmware packs a heater as current | target << 16 under `device`; older firmware has
    /// flat fields. The packed form wins when both are there.
    private func readTemperatures(into status: inout PrinterStatus) {
        let device = fields["device"] as? [String: Any]
        let extruders = ((device?["extruder"] as? [String: Any])?["info"] as? [[String: Any]])
            .map { ListLimit.first($0, ListLimit.nozzles, of: "nozzles").compactMap { Self.packed($0["temp"]) } } ?? []
        if !extruders.isEmpty {
            status.nozzles = extruders
        } else if let nozzle = PrinterStatus.Temperature(reported: fields["nozzle_temper"], target: fields["nozzle_target_temper"]) {
            status.nozzles = [nozzle]
        }
        status.bed = Self.packed(((device?["bed"] as? [String: Any])?["info"] as? [String: Any])?["temp"])
            ?? PrinterStatus.Temperature(reported: fields["bed_temper"], target: fields["bed_target_temper"])
        status.chamber = Self.packed(((device?["ctc"] as? [String: Any])?["info"] as? [String: Any])?["temp"])
            ?? PrinterStatus.Temperature(reported: fields["chamber_temper"], target: nil)
    }

    private static func packed(_ value: Any?) -> PrinterStatus.Temperature? {
        guard let raw = PrinterNumber.int(value, in: PrinterNumber.code) else { return nil }
        return .init(current: Double(raw & 0xFFFF), target: Double((raw >> 16) & 0xFFFF))
    }

    private var chamberLight: Bool? {
        guard let lights = fields["lights_report"] as? [[String: Any]],
              let light = lights.first(where: { JSONValue.string($0["node"]) == "chamber_light" }),
              let mode = JSONValue.string(light["mode"]) else { return nil }
        return mode != "off"
    }

    /// The chamber lights a light switch drives: `chamber_light`, and `chamber_light2` where the
    /// printer reports one (H2D).
    var lightNodes: [String] {
        let reported = (fields["lights_report"] as? [[String: Any]])?.compactMap { JSONValue.string($0["node"]) } ?? []
        return ["chamber_light"] + (reported.contains("chamber_light2") ? ["chamber_light2"] : [])
    }

    /// HMS entries as the codes Bambu's wiki is searched by: `AAAA_BBBB_CCCC_DDDD` from `attr` and
    /// `code`, each once, in the printer's order.
    private var alerts: [String] {
        guard let entries = fields["hms"] as? [[String: Any]] else { return [] }
        var codes: [String] = []
        for entry in ListLimit.first(entries, ListLimit.alerts, of: "HMS alerts") {
            guard let attr = PrinterNumber.int(entry["attr"], in: PrinterNumber.code),
                  let code = PrinterNumber.int(entry["code"], in: PrinterNumber.code) else { continue }
            let text = Self.code(UInt32(attr)) + "_" + Self.code(UInt32(code))
            if !codes.contains(text) { codes.append(text) }
        }
        return codes
    }

    private static func code(_ value: UInt32) -> String {
        String(format: "%04X_%04X", value >> 16, value & 0xFFFF)
    }
}
