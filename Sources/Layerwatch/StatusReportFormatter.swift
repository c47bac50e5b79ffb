import Foundation
import StatusKit
import StreamKit

/// Renders a printer's status (or why there is none) for a terminal or as JSON, for
/// `layerwatch status`; everything the printer sent is made terminal-safe.
enum StatusReportFormatter {
    static func text(_ status: PrinterStatus, endpoint: StatusEndpoint) -> String {
        var rows: [(String, String)] = [(tr("state"), StatusText.state(of: status))]
        // TRANSLATORS: the status report's row labels (`layerwatch status`); keep them short.
        if let job = status.job { rows.append((tr("job"), job)) }
        if let progress = status.progress {
            let layers = StatusText.layers(status).map { " (\($0))" } ?? ""
            rows.append((tr("progress"), String(format: "%.0f %%", progress) + layers))
        }
        if let left = status.timeLeft, status.hasActiveJob {
            rows.append((tr("time left"), String(format: tr("%@ (ends %@)"), StatusText.duration(left), StatusText.finishTime(after: left))))
        }
        rows += StatusText.heaters(status).map { ($0.label, $0.value) }
        if let light = status.chamberLight { rows.append((tr("light"), light ? tr("on") : tr("off"))) }
        if let error = status.errorText { rows.append((tr("error"), error)) }
        if let printError = status.printError { rows.append(("", printError.url)) }
        // One row per alert, the label on the first; each with the page that explains it.
        for (index, alert) in status.alerts.enumerated() {
            rows.append((index == 0 ? tr("alerts") : "", alert.summary))
            rows.append(("", alert.url))
        }
        rows += status.filament.units.compactMap { unit in unit.humidityLevel.map { (FilamentText.unit(unit.id), FilamentText.humidity($0)) } }
        rows += status.filament.slots.map { (FilamentText.place($0.place), FilamentText.summary($0)) }
        return table(title: String(format: tr("Status of %@"), endpoint.description), rows: rows)
    }

    static func text(_ failure: StatusFailure, endpoint: CustomStringConvertible) -> String {
        table(title: String(format: tr("Status of %@"), endpoint.description),
              rows: [(tr("error"), "\(failure.kind): \(failure.userMessage)")])
    }

    private static func table(title: String, rows: [(String, String)]) -> String {
        let column = max(11, (rows.map(\.0.count).max() ?? 0) + 2)
        let lines = [title] + rows.map { $0.0.padding(toLength: column, withPad: " ", startingAt: 0) + $0.1 }
        return lines.map(TerminalText.safe).joined(separator: "\n")
    }

    /// One JSON object on one line (so `--watch --json` prints JSON lines).
    static func json(_ status: PrinterStatus, endpoint: StatusEndpoint) -> String {
        var object: [String: Any] = ["endpoint": endpoint.description, "state": status.state.rawValue,
                                     "nozzles": status.nozzles.map(temperature), "hms": status.alerts.map(alert)]
        object["job"] = status.job
        object["transition"] = status.transition?.rawValue
        object["progress"] = status.progress
        object["layer"] = status.layer
        object["totalLayers"] = status.totalLayers
        object["timeLeftSeconds"] = status.timeLeft.map(PrinterNumber.rounded)
        object["elapsedSeconds"] = status.elapsed.map(PrinterNumber.rounded)
        object["bed"] = status.bed.map(temperature)
        object["chamber"] = status.chamber.map(temperature)
        object["chamberLight"] = status.chamberLight
        object["error"] = status.errorText
        object["printError"] = status.printError.map(alert)
        object["filament"] = status.filament.slots.map(filament)
        object["ams"] = status.filament.units.map { unit -> [String: Any] in
            var entry: [String: Any] = ["unit": unit.id]
            entry["humidityLevel"] = unit.humidityLevel
            return entry
        }
        return encode(object)
    }

    /// `{"code", "severity", "module", "text", "url"}`; null for what is not known.
    private static func alert(_ alert: BambuAlert) -> [String: Any] {
        ["code": alert.code, "severity": alert.severity?.rawValue ?? NSNull(), "module": alert.module?.rawValue ?? NSNull(),
         "text": alert.text ?? NSNull(), "url": alert.url]
    }

    static func json(_ failure: StatusFailure, endpoint: CustomStringConvertible) -> String {
        encode(["endpoint": endpoint.description, "failure": ["kind": failure.kind, "message": failure.userMessage]])
    }

    static func json(_ cameras: [ImportedCamera], endpoint: CustomStringConvertible) -> String {
        encode(["endpoint": endpoint.description, "cameras": cameras.map { camera -> [String: Any] in
            var entry: [String: Any] = ["name": camera.name, "service": camera.service, "rotation": camera.rotation,
                                        "flipHorizontal": camera.flipHorizontal, "flipVertical": camera.flipVertical,
                                        "browserOnly": camera.isBrowserOnly]
            entry["url"] = camera.url.map(Redactor(secrets: []).redact)  // a password the host lists: `rtsp://admin:***@…`
            entry["refusal"] = camera.refusal
            entry["otherHost"] = camera.otherHost
            return entry
        }])
    }

    static func text(_ cameras: [ImportedCamera], endpoint: CustomStringConvertible) -> String {
        var lines = [String(format: tr("Cameras of %@"), endpoint.description)]
        if cameras.isEmpty { lines.append("  " + tr("none")) }
        for camera in cameras {
            var details = ["\(camera.service)"]
            if camera.rotation != 0 { details.append(String(format: tr("rotated %ld°"), camera.rotation)) }
            if camera.flipHorizontal { details.append(tr("flipped horizontally")) }
            if camera.flipVertical { details.append(tr("flipped vertically")) }
            if let host = camera.otherHost { details.append(String(format: tr("on %@, not the printer's host"), host)) }
            let url = [camera.url.map(Redactor(secrets: []).redact), camera.refusal.map { String(format: tr("cannot be added: %@"), $0) }].compactMap { $0 }.joined(separator: " — ")
            lines.append("  \(camera.name): \(url) (\(details.joined(separator: ", ")))")
        }
        return lines.map(TerminalText.safe).joined(separator: "\n")
    }

    /// `{"slot":"ams","unit":0,"tray":1,"type":"PLA","color":"FF0000FF","remaining":80,"active":true}`;
    /// `"slot":"external"` for Bambu's external spool, `"slot":"spoolman","spool":ID` for Moonraker's
    /// active spool. Unknown fields are left out; an empty tray has `"empty":true`.
    private static func filament(_ slot: FilamentSlot) -> [String: Any] {
        var object: [String: Any] = ["active": slot.isActive]
        switch slot.place {
        case .tray(let unit, let tray): object.merge(["slot": "ams", "unit": unit, "tray": tray]) { $1 }
        case .external: object["slot"] = "external"
        case .spoolman(let id): object.merge(["slot": "spoolman", "spool": id]) { $1 }
        }
        if slot.isEmpty { object["empty"] = true }
        object["type"] = slot.type
        object["name"] = slot.name
        object["color"] = slot.color
        object["remaining"] = slot.remaining
        object["remainingGrams"] = slot.remainingGrams.map(PrinterNumber.rounded)
        return object
    }

    private static func temperature(_ value: PrinterStatus.Temperature) -> [String: Any] {
        var object: [String: Any] = ["current": value.current]
        object["target"] = value.target
        return object
    }

    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return TerminalText.safeJSON(String(decoding: data, as: UTF8.self))
    }
}
