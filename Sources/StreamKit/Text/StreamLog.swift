/// Where StreamKit's diagnostics go: nowhere by default; the app routes them to GLib's structured
/// log under the "Layerwatch" domain (`G_MESSAGES_DEBUG=Layerwatch` shows them). Every message is
/// built from redacted text (`StreamSource.description`, failure messages) before it gets here.
public enum StreamLog {
    public enum Level: Sendable {
        /// Session events and timings, shown only when asked for.
        case debug
        /// Something a user may want to know about (a camera failed).
        case info
    }

    /// Set once at start-up, before any session runs.
    nonisolated(unsafe) public static var handler: (@Sendable (Level, String) -> Void)?

    public static func log(_ level: Level, _ message: @autoclosure () -> String) {
        handler?(level, message())
    }
}
