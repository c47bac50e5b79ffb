import CameraKit
import Foundation
import GtkKit
import StatusKit

/// A printer's print status beside one of its camera views: the status strip (in the view's
/// style), the heaters and filament at a glance (inside the full strip; a tile places it itself),
/// the owner's chamber-light switch and the temperatures the view's stats show, all from
/// one `PrinterStatusHub` observation. Each owner (tab, mini window, farm tile) makes one and places
/// its strip where its layout wants it; the camera surface never learns of it, so status and camera
/// stay independent (either can fail while the other works, and switching cameras keeps it).
@MainActor
final class PrintStatusBinding {
    let strip: StatusStrip
    /// Heaters and filament; nil in the compact (mini window) style, which keeps to one line.
    let glance: StatusGlance?
    private var observation: PrinterStatusHub.Observation?
    /// The desktop's clock format, which the strip's end time follows.
    private var clockObservation: DesktopClock.Observation?
    /// Ticks the age of a last status shown while the printer reconnects.
    private var ageTicker: RepeatingTimer?

    init(style: CameraSurface.Style) {
        strip = StatusStrip(style: style)
        glance = style == .compact ? nil : StatusGlance()
        if style == .full, let glance { strip.append(glance.widget) }
    }

    /// The strip's summary now; nil without a status.
    var summary: PrintSummary? { strip.summary }

    /// Shows printer `printerID`'s status from `hub` from now on: the strip, `light` (the owner's
    /// switch, wherever it placed it) and `temperatures` (the owner's stats overlay: the heaters
    /// while live, none otherwise); then tells `onChange`.
    func follow(_ printerID: UUID, in hub: PrinterStatusHub, light: ChamberLightToggle,
                temperatures: StatsOverlay? = nil, onChange: @escaping @MainActor () -> Void = {}) {
        light.onRequest = { [weak hub] on in hub?.setChamberLight(on, for: printerID) }
        observation = hub.observe(printerID: printerID) { [weak self, weak hub, weak light, weak temperatures] update in
            guard let self, let hub else { return }
            glance?.show(update?.connection == .live ? update?.status : nil)
            strip.show(PrintSummary(of: printerID, in: hub))
            tickAge(of: printerID, in: hub)
            let live = update?.connection == .live ? update?.status : nil
            temperatures?.extraLines = live.map(Self.temperatureLines) ?? []
            light?.show(update, switchable: hub.endpoint(of: printerID)?.hasSwitchableLight ?? false)
            onChange()
        }
        clockObservation = DesktopClock.shared.observe { [weak self, weak hub] in
            guard let self, let hub else { return }
            strip.show(PrintSummary(of: printerID, in: hub))
        }
    }

    /// `nozzle  215 / 220 °C`, `bed  60 / 60 °C`, `chamber  32 °C`: each heater the printer reports,
    /// as the stats overlay lists them.
    static func temperatureLines(_ status: PrinterStatus) -> [String] {
        let rows = StatusText.heaters(status)
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map { $0.label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.value }
    }

    /// Counts the shown last status's age each second while it is shown, and stops after.
    private func tickAge(of printerID: UUID, in hub: PrinterStatusHub) {
        guard strip.summary?.isStale == true else { ageTicker = nil; return }
        guard ageTicker == nil else { return }
        ageTicker = RepeatingTimer(seconds: 1) { [weak self, weak hub] in
            guard let self, let hub else { return }
            strip.show(PrintSummary(of: printerID, in: hub))
        }
    }
}
