import Foundation

/// How much of the status thread a WebSocket server's control frames may take: a server flooding
/// pings would otherwise keep a core busy reading and answering them. Pongs go at most every
/// `pongSpacing`, for the newest ping only (RFC 6455 §5.5.3 allows answering only the most recent
/// one); past `frames` control frames in a second, each further read of the connection waits
/// `pause` first, so a flood is read at a bounded pace and the messages between its frames still
/// arrive.
struct ControlFrameBudget {
    /// Control frames a second read at full speed: a printer pings every few seconds.
    static let frames = 50
    static let pongSpacing: TimeInterval = 0.1
    static let pause: TimeInterval = 0.05

    private var windowStart = Date.distantPast
    private var counted = 0
    private var lastPong = Date.distantPast

    /// Counts one control frame received now.
    mutating func count(now: Date = Date()) {
        if now.timeIntervalSince(windowStart) >= 1 {
            windowStart = now
            counted = 0
        }
        counted += 1
    }

    /// Whether this second's control frames are spent, so the next read waits `pause`.
    func isSpent(now: Date = Date()) -> Bool {
        counted > Self.frames && now.timeIntervalSince(windowStart) < 1
    }

    /// Seconds until a pong may go (0 when one may go now).
    func untilPong(now: Date = Date()) -> TimeInterval {
        max(0, Self.pongSpacing - now.timeIntervalSince(lastPong))
    }

    /// Notes a pong sent now.
    mutating func ponged(now: Date = Date()) {
        lastPong = now
    }
}
