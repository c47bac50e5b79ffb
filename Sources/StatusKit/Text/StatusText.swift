import Foundation
import StreamKit

/// How a status reads, the same in the status strip, notifications and `layerwatch status`:
/// states, durations, finish times and temperatures as translated text.
public enum StatusText {
    public static func state(_ state: PrinterStatus.State) -> String {
        switch state {
        case .idle: return tr("Idle")
        case .preparing: return tr("Preparing")
        case .printing: return tr("Printing")
        case .paused: return tr("Paused")
        case .finished: return tr("Finished")
        case .failed: return tr("Failed")
        case .cancelled: return tr("Cancelled")
        case .offline: return tr("Offline")
        }
    }

    /// The state `status` shows: its transition's words while it is pausing, resuming or stopping.
    public static func state(of status: PrinterStatus) -> String {
        switch status.transition {
        case .pausing?: return tr("Pausing")
        case .resuming?: return tr("Resuming")
        case .stopping?: return tr("Stopping")
        case nil: return state(status.state)
        }
    }

    /// How long ago something was: `40 s ago`, then `12 min ago`, `2 h 05 min ago`.
    public static func ago(_ seconds: TimeInterval) -> String {
        seconds < 60 ? String(format: tr("%d s ago"), Int(max(0, seconds))) : String(format: tr("%@ ago"), duration(seconds))
    }

    /// `2 h 05 min`, `12 min`, `< 1 min`.
    public static func duration(_ seconds: TimeInterval) -> String {
        let minutes = PrinterNumber.rounded(max(0, seconds) / 60)
        if minutes < 1 { return tr("< 1 min") }
        if minutes < 60 { return String(format: tr("%d min"), minutes) }
        return String(format: tr("%d h %02d min"), minutes / 60, minutes % 60)
    }

    /// The clock time a job `seconds` from `now` ends, in the user's locale (`15:42`), with the
    /// weekday when it is not today; on a 24- or 12-hour clock when `clock` says (the desktop's
    /// setting), else as the locale has it.
    public static func finishTime(after seconds: TimeInterval, from now: Date = Date(), clock: ClockFormat? = nil,
                                  locale: Locale = .current) -> String {
        let end = now.addingTimeInterval(min(max(0, seconds), PrinterNumber.seconds.upperBound))
        let formatter = DateFormatter()
        formatter.locale = locale
        let sameDay = Calendar.current.isDate(end, inSameDayAs: now)
        let hours = clockTemplate(clock)
        formatter.setLocalizedDateFormatFromTemplate(sameDay ? hours : "EEE" + hours)
        return formatter.string(from: end)
    }

    /// The date-format template of a clock time: on a 24- or 12-hour clock when `clock` says, else
    /// as the locale has it.
    public static func clockTemplate(_ clock: ClockFormat?) -> String {
        switch clock {
        case .twentyFourHour?: "HHmm"
        case .twelveHour?: "hmma"
        case nil: "jmm"
        }
    }

    /// `215 / 220 °C` while heating, `24 °C` when the heater is off or its target unknown.
    public static func temperature(_ temperature: PrinterStatus.Temperature) -> String {
        let current = PrinterNumber.rounded(temperature.current)
        if let target = temperature.target, target > 0 {
            return String(format: tr("%d / %d °C"), current, PrinterNumber.rounded(target))
        }
        return String(format: tr("%d °C"), current)
    }

    /// Each heater the printer reports, labelled (`nozzle` or `nozzle 1`, `nozzle 2`; `bed`;
    /// `chamber`), with its temperature as `temperature(_:)` words it.
    public static func heaters(_ status: PrinterStatus) -> [(label: String, value: String)] {
        var rows = status.nozzles.enumerated().map { index, nozzle in
            (status.nozzles.count > 1 ? String(format: tr("nozzle %d"), index + 1) : tr("nozzle"), nozzle)
        }
        if let bed = status.bed { rows.append((tr("bed"), bed)) }
        if let chamber = status.chamber { rows.append((tr("chamber"), chamber)) }
        return rows.map { (label: $0.0, value: temperature($0.1)) }
    }

    /// `layer 17 of 120`, or `layer 17` when the total is unknown or the layer is past it (a
    /// printer that reports layer 448 of 230 has a wrong total, not a layer to hide); nil without a layer.
    public static func layers(_ status: PrinterStatus) -> String? {
        guard let layer = status.layer, status.hasActiveJob || status.state == .finished else { return nil }
        if let total = status.totalLayers, layer <= total { return String(format: tr("layer %d of %d"), layer, total) }
        return String(format: tr("layer %d"), layer)
    }
}
