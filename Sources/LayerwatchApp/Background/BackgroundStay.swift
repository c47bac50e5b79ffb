import CGtk
import CLayerwatch
import GtkKit

/// Layerwatch running with no window: the application held (GApplication's use count), so that
/// closing the last window does not end the process while printers are watched, until a window
/// comes back or Quit. It exists so the one job of a monitor — telling when a print ends — goes on
/// when nobody looks.
@MainActor
final class BackgroundStay {
    private let application: OpaquePointer
    /// Whether the application is held (running with no window).
    private(set) var isHeld = false
    /// Calls `settled` once the window's views are gone.
    private var settle: RepeatingTimer?
    /// How long after the window goes it has settled: the cameras' threads end within FFmpeg's
    /// interrupt poll, well before.
    static let settleDelay: UInt32 = 5

    init(application: OpaquePointer) {
        self.application = application
    }

    /// Keeps the process running with no window; `settled` runs once what the window's views used
    /// is freed (`settleDelay` later, unless a window came back), after the freed memory is given
    /// back to the system.
    func hold(settled: @escaping @MainActor () -> Void = {}) {
        guard !isHeld else { return }
        isHeld = true
        g_application_hold(gcast(application))
        settle = RepeatingTimer(seconds: Self.settleDelay) { [weak self] in
            self?.settle = nil
            // Freed memory stays in glibc's arenas (one per thread that decoded) unless handed back:
            // about 60 MiB of the window's 8 cameras (bench/BACKGROUND.md).
            lw_release_freed_memory()
            lw_release_clean_file_pages()
            settled()
        }
    }

    /// Lets the process end with its last window again (a window is back, or Quit).
    func release() {
        guard isHeld else { return }
        isHeld = false
        settle = nil
        g_application_release(gcast(application))
    }
}
