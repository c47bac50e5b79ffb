import CGtk
import Foundation

/// A connection to the test's X display, held open for as long as this object lives. Xvfb as
/// `xvfb-run` starts it resets when its last client leaves and refuses a connection made during the
/// reset: a test whose only X clients are the processes it starts (the app, one `xdotool` per poll)
/// otherwise sees now and then a launch end at once with "cannot open display".
public final class DisplayHold {
    private let display: OpaquePointer

    /// Connects to `DISPLAY` (again, if the connection falls in a reset the test before caused).
    public init() throws {
        var opened: OpaquePointer?
        _ = waitUntil(timeout: 10) {
            opened = XOpenDisplay(nil)
            return opened != nil
        }
        guard let opened else { throw DisplayHoldError.noDisplay }
        display = opened
    }

    deinit {
        XCloseDisplay(display)
    }
}

/// No X display could be opened (`DISPLAY` unset, or no server there).
public enum DisplayHoldError: Error {
    case noDisplay
}
