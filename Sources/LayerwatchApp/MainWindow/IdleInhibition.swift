import CGtk
import GtkKit
import StreamKit

/// Keeps the screen awake while a camera is fullscreen, as a video player does: the application's
/// idle inhibition, held for the main window while it is fullscreen and let go when it leaves
/// fullscreen or goes.
@MainActor
final class IdleInhibition {
    private let application: OpaquePointer
    /// The inhibition's cookie while it is held.
    private var cookie: guint = 0

    init(application: OpaquePointer) {
        self.application = application
    }

    /// Holds the inhibition for `window`, or lets it go.
    func set(_ inhibit: Bool, for window: UnsafeMutablePointer<GtkWidget>) {
        if inhibit, cookie == 0 {
            cookie = gtk_application_inhibit(gcast(application), gcast(window), GTK_APPLICATION_INHIBIT_IDLE,
                                             tr("Watching a printer camera fullscreen"))
        } else if !inhibit, cookie != 0 {
            gtk_application_uninhibit(gcast(application), cookie)
            cookie = 0
        }
    }
}
