import CGtk
import CLayerwatch
import GtkKit
import StreamKit

extension GLibLog {
    /// Routes StreamKit's diagnostics to the same log, at start-up before any session runs.
    static func install() {
        StreamLog.handler = { level, message in
            lw_log(level == .debug ? G_LOG_LEVEL_DEBUG : G_LOG_LEVEL_INFO, message)
        }
    }
}
