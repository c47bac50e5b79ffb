import CGtk
import CLayerwatch
import StreamKit

/// Sends Layerwatch's diagnostics to GLib's structured log under the "Layerwatch" domain, where the
/// journal and `G_MESSAGES_DEBUG=Layerwatch` find them. Messages arrive already redacted.
enum GLibLog {
    static func install() {
        StreamLog.handler = { level, message in
            lw_log(level == .debug ? G_LOG_LEVEL_DEBUG : G_LOG_LEVEL_INFO, message)
        }
    }

    /// An app event, shown with `G_MESSAGES_DEBUG=Layerwatch`.
    static func debug(_ message: String) {
        lw_log(G_LOG_LEVEL_DEBUG, message)
    }

    /// A warning the user should see in the journal (a config problem, a failed save).
    static func warning(_ message: String) {
        lw_log(G_LOG_LEVEL_WARNING, message)
    }
}
