import CGtk
import CLayerwatch

/// Sends Layerwatch's diagnostics to GLib's structured log under the "Layerwatch" domain, where the
/// journal and `G_MESSAGES_DEBUG=Layerwatch` find them. Messages arrive already redacted.
public enum GLibLog {
    /// An app event, shown with `G_MESSAGES_DEBUG=Layerwatch`.
    public static func debug(_ message: String) {
        lw_log(G_LOG_LEVEL_DEBUG, message)
    }

    /// A warning the user should see in the journal (a config problem, a failed save).
    public static func warning(_ message: String) {
        lw_log(G_LOG_LEVEL_WARNING, message)
    }
}
