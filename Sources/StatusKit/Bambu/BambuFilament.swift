import Foundation

/// Reads a Bambu report's filament: `ams.ams[]` (units with `humidity` and `tray[]` of
/// `tray_type`, `tray_sub_brands`, `tray_color` as RRGGBBAA and `remain` in per cent, -1 when the
/// AMS does not know), `vt_tray` (the external spool) and `ams.tray_now`, the tray feeding now: the
/// unit times four plus the tray for an AMS, the unit's own id (128+) for an AMS HT, 254 the
/// external spool, 255 none (as ha-bambulab's pybambu reads them). A printer with two nozzles (H2D)
/// says it per nozzle instead: `device.extruder.info[].snow` is the unit << 8 | the tray (unit 254
/// or 255 an external spool, tray 0xFF none) and `device.extruder.state` bits 4–7 the nozzle in
/// use; its `tray_now` is then stale, so `snow` wins where reported. The printer's humidity level
/// runs 5 (dry) to 1 (wet); Bambu Studio and Handy show it the other way round, 1 dry, so it is
/// turned to theirs. Lists are cut to `ListLimit`'s sizes; every number goes through `PrinterNumber`.
enum BambuFilament {
    static let externalSpool = 254
    static let noTray = 255

    static func filament(in fields: [String: Any]) -> Filament {
        let ams = fields["ams"] as? [String: Any]
        let feeding = nozzleFeeding(in: fields) ?? PrinterNumber.int(ams?["tray_now"], in: 0...noTray).flatMap(place(trayNow:))
        var units: [FilamentUnit] = []
        var slots: [FilamentSlot] = []
        for entry in ListLimit.first(ams?["ams"] as? [[String: Any]] ?? [], ListLimit.amsUnits, of: "AMS units") {
            guard let id = PrinterNumber.int(entry["id"], in: 0...(noTray - 1)), !units.contains(where: { $0.id == id }) else { continue }
            let level = PrinterNumber.int(entry["humidity"], in: PrinterNumber.humidityLevel).map { 6 - $0 }
            units.append(FilamentUnit(id: id, humidityLevel: level))
            var seen = Set<Int>()
            for tray in ListLimit.first(entry["tray"] as? [[String: Any]] ?? [], ListLimit.amsTrays, of: "AMS trays") {
                guard let index = PrinterNumber.int(tray["id"], in: 0...(ListLimit.amsTrays - 1)), seen.insert(index).inserted else { continue }
                slots.append(slot(tray, at: .tray(unit: id, tray: index), feeding: feeding))
            }
        }
        if let external = fields["vt_tray"] as? [String: Any] {
            slots.append(slot(external, at: .external, feeding: feeding))
        }
        return Filament(units: units, slots: slots)
    }

    /// The place the nozzle in use feeds from, when the report says it per nozzle (`snow`): nil when
    /// it does not, `.some(nil)` when it says none.
    private static func nozzleFeeding(in fields: [String: Any]) -> FilamentSlot.Place?? {
        let extruder = (fields["device"] as? [String: Any])?["extruder"] as? [String: Any]
        let nozzles = ListLimit.first(extruder?["info"] as? [[String: Any]] ?? [], ListLimit.nozzles, of: "nozzles")
        guard nozzles.contains(where: { $0["snow"] != nil }) else { return nil }
        let inUse = PrinterNumber.int(extruder?["state"], in: PrinterNumber.code).map { ($0 >> 4) & 0xF } ?? 0
        let snow = nozzles.first { PrinterNumber.int($0["id"], in: 0...15) == inUse }.flatMap { PrinterNumber.int($0["snow"], in: 0...0xFFFF) }
        return .some(snow.flatMap(place(snow:)))
    }

    private static func place(snow: Int) -> FilamentSlot.Place? {
        let (unit, tray) = (snow >> 8, snow & 0xFF)
        switch (unit, tray) {
        case (_, 0xFF): return nil
        case (externalSpool..., _): return .external
        case (128..., _): return .tray(unit: unit, tray: 0)
        default: return .tray(unit: unit, tray: tray & 3)
        }
    }

    /// The place `tray_now` names; nil for none.
    private static func place(trayNow value: Int) -> FilamentSlot.Place? {
        switch value {
        case noTray: return nil
        case externalSpool: return .external
        case 128...: return .tray(unit: value, tray: 0)
        default: return .tray(unit: value >> 2, tray: value & 3)
        }
    }

    /// A tray without a `tray_type` is empty (an X1 reports it as its `id` alone): its colour and
    /// remain, if any, are left out.
    private static func slot(_ tray: [String: Any], at place: FilamentSlot.Place, feeding: FilamentSlot.Place?) -> FilamentSlot {
        // The external spool's `remain` is not measured (pybambu reports it unknown).
        let remaining = place == .external ? nil : PrinterNumber.int(tray["remain"], in: PrinterNumber.percentInt)
        let slot = FilamentSlot(place: place, type: JSONValue.string(tray["tray_type"]), name: JSONValue.string(tray["tray_sub_brands"]),
                                color: tray["tray_color"] as? String, remaining: remaining, isActive: place == feeding)
        return slot.isEmpty ? FilamentSlot(place: place, isActive: slot.isActive) : slot
    }
}
