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
    /// Gives the memory the window's views freed back to the system, once their sessions' threads
    /// have ended.
    private var trim: RepeatingTimer?
    /// How long after the window goes the memory is trimmed: the cameras' threads end within
    /// FFmpeg's interrupt poll, well before.
    static let trimDelay: UInt32 = 5

    init(application: OpaquePointer) {
        self.application = application
    }

    /// Keeps the process running with no window.
    func hold() {
        guard !isHeld else { return }
        isHeld = true
        g_application_hold(gcast(application))
        // Freed memory stays in glibc's arenas (one per thread that decoded) unless handed back:
        // about 60 MiB of the window's 8 cameras (bench/BACKGROUND.md).
        trim = RepeatingTimer(seconds: Self.trimDelay) { [weak self] in
            self?.trim = nil
            lw_release_freed_memory()
        }
    }

    /// Lets the process end with its last window again (a window is back, or Quit).
    func release() {
        guard isHeld else { return }
        isHeld = false
        trim = nil
        g_application_release(gcast(application))
    }
}
