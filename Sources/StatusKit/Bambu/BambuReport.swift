import Foundation

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
        status.jobID = JSONValue.string(fields["task_id"]).flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        status.progress = PrinterNumber.double(fields["mc_percent"], in: PrinterNumber.percent)
        status.timeLeft = PrinterNumber.double(fields["mc_remaining_time"], in: PrinterNumber.minutes).map { $0 * 60 }
        status.layer = PrinterNumber.int(fields["layer_num"], in: PrinterNumber.layers)
        status.totalLayers = PrinterNumber.int(fields["total_layer_num"], in: PrinterNumber.layers).flatMap { $0 > 0 ? $0 : nil }
        readTemperatures(into: &status)
        status.chamberLight = chamberLight
        status.alerts = alerts
        status.needsDeveloperMode = needsSignedCommands
        status.speed = PrinterNumber.int(fields["spd_lvl"], in: PrinterNumber.code).flatMap(PrintSpeed.init(rawValue:))
        status.filament = BambuFilament.filament(in: fields)
        if let error = PrinterNumber.int(fields["print_error"], in: PrinterNumber.code), error != 0 {
            if status.state == .failed && Self.cancelCodes.contains(UInt32(error)) {
                status.state = .cancelled  // a stop, not a fault: no error to show
                return status
            }
            let printError = BambuAlert(printError: UInt32(error))
            status.printError = printError
            status.errorText = printError.summary
        }
        return status
    }

    /// The `print_error` values of a stopped print that FAILED names: 0300_400C "The task was
    /// canceled." (a stop from a client or the screen; 50348044, what X1 firmware reports) and
    /// 0500_400E "Printing was cancelled." (`BambuAlertTexts`).
    static let cancelCodes: Set<UInt32> = [0x0300_400C, 0x0500_400E]

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

    /// The `fun` feature bits (a hex string, up to 64 bits) with bit 0x20000000 set: the firmware
    /// requires signed control commands, i.e. LAN Only mode's Developer Mode is off (ha-bambulab's
    /// `Print_Fun_Values.MQTT_SIGNATURE_REQUIRED`, ../shared/PROTOCOLS.md §9).
    private var needsSignedCommands: Bool {
        guard let text = JSONValue.string(fields["fun"]), text.count <= 16, let bits = UInt64(text, radix: 16) else { return false }
        return bits & 0x2000_0000 != 0
    }

    /// The chamber lights a light switch drives: `chamber_light`, and `chamber_light2` where the
    /// printer reports one (H2D).
    var lightNodes: [String] {
        let reported = (fields["lights_report"] as? [[String: Any]])?.compactMap { JSONValue.string($0["node"]) } ?? []
        return ["chamber_light"] + (reported.contains("chamber_light2") ? ["chamber_light2"] : [])
    }

    /// HMS entries in words, each code once, in the printer's order.
    private var alerts: [BambuAlert] {
        guard let entries = fields["hms"] as? [[String: Any]] else { return [] }
        var alerts: [BambuAlert] = []
        for entry in ListLimit.first(entries, ListLimit.alerts, of: "HMS alerts") {
            guard let attr = PrinterNumber.int(entry["attr"], in: PrinterNumber.code),
                  let code = PrinterNumber.int(entry["code"], in: PrinterNumber.code) else { continue }
            let alert = BambuAlert(attr: UInt32(attr), code: UInt32(code))
            if !alerts.contains(where: { $0.code == alert.code }) { alerts.append(alert) }
        }
        return alerts
    }
}
