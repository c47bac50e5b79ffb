import CGtk
import Foundation

extension LayerwatchApplication {
    /// SIGTERM (a logout, systemd, `kill`) and SIGINT (Ctrl+C in a terminal) end Layerwatch as
    /// Quit does, in the main loop: recordings closed whole, the window's size remembered, exit
    /// status 0. Once: a second signal finds the default action again and ends the process at once.
    func quitOnSignals() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        for number in [SIGTERM, SIGINT] {
            g_unix_signal_add(number, { data in
                guard let data else { return gboolean(G_SOURCE_REMOVE) }
                let app = Unmanaged<LayerwatchApplication>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { app.quit() }
                return gboolean(G_SOURCE_REMOVE)
            }, context)
        }
    }
}
