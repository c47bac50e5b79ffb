import CGtk
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

    init(application: OpaquePointer) {
        self.application = application
    }

    /// Keeps the process running with no window.
    func hold() {
        guard !isHeld else { return }
        isHeld = true
        g_application_hold(gcast(application))
    }

    /// Lets the process end with its last window again (a window is back, or Quit).
    func release() {
        guard isHeld else { return }
        isHeld = false
        g_application_release(gcast(application))
    }
}
