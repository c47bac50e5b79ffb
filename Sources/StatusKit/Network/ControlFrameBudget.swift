import CWebSocketGuard
import Foundation

/// How much of the status thread a WebSocket server's control frames may take: a server flooding
/// pings would otherwise keep a core busy reading and answering them (libsoup 3.2 answers every
/// ping it reads, and reads on as long as bytes come). The guard under libsoup's reads
/// (CWebSocketGuard) applies it: a ping goes on to libsoup, which answers it, at most every
/// `pongSpacing` (RFC 6455 §5.5.3 lets a client leave pings unanswered but the latest), the others
/// are dropped; past `frames` control frames in a second, each further read of the connection waits
/// `pause` first, so a flood is read at a bounded pace and the messages between its frames still
/// arrive.
enum ControlFrameBudget {
    /// Control frames a second read at full speed: a printer pings every few seconds.
    static let frames = 50
    static let pongSpacing: TimeInterval = 0.1
    static let pause: TimeInterval = 0.05

    /// The guard's limits, with `maximumMessage` bytes the most a message may hold.
    static func limits(maximumMessage: Int) -> LwWebsocketGuardLimits {
        LwWebsocketGuardLimits(max_message: guint64(maximumMessage), ping_spacing: pongSpacing, control_frames: Int32(frames), pause: pause)
    }
}
