import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// Camera Lost, noticed: each second it looks at the camera each printer's tab shows (a tab
/// is what keeps a camera attached; its mini window shows the same session) and, once one has been
/// failing or reconnecting for longer than the Preferences' minutes while Camera Lost is on, has
/// it notified once; a camera that comes back may be lost, and told, again.
@MainActor
final class CameraLossWatch {
    /// The seconds a Preferences minute lasts (tests make it short).
    var minute: TimeInterval = 60
    /// The printers' tabs now: each printer's id and its shown camera's state.
    private let cameras: @MainActor () -> [(printerID: UUID, state: SessionState)]
    /// Tells that printer's camera has been lost for that many minutes.
    private let tell: @MainActor (UUID, Int) -> Void
    private unowned let library: PrinterLibrary
    /// Since when each lost camera has been lost, and whether that was told.
    private var lost: [UUID: (since: Date, told: Bool)] = [:]
    private var timer: RepeatingTimer?

    init(library: PrinterLibrary, cameras: @escaping @MainActor () -> [(printerID: UUID, state: SessionState)],
         tell: @escaping @MainActor (UUID, Int) -> Void) {
        self.library = library
        self.cameras = cameras
        self.tell = tell
        timer = RepeatingTimer(seconds: 1) { [weak self] in self?.look() }
    }

    private func look(at now: Date = Date()) {
        let preferences = library.config.preferences
        let minutes = preferences.cameraLostMinutes, on = preferences.notifiedEvents.contains(.cameraLost)
        var stillLost: [UUID: (since: Date, told: Bool)] = [:]
        for camera in cameras() {
            switch camera.state {
            case .failed, .reconnecting: break
            default: continue
            }
            var entry = lost[camera.printerID] ?? (now, false)
            if on, !entry.told, now.timeIntervalSince(entry.since) > Double(minutes) * minute {
                entry.told = true
                tell(camera.printerID, minutes)
            }
            stillLost[camera.printerID] = entry
        }
        lost = stillLost
    }
}
