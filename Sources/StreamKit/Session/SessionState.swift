import Foundation

/// The life of a stream session as views show it: each case maps to one overlay.
public enum SessionState: Equatable, Sendable {
    case idle
    case connecting
    case live
    /// Waiting before reconnect `attempt` (1-based), which starts at `retryAt`.
    case reconnecting(attempt: Int, retryAt: Date, after: StreamFailure)
    case failed(StreamFailure)
    case stopped

    /// A short stable name, for JSON output and logs.
    public var name: String {
        switch self {
        case .idle: return "idle"
        case .connecting: return "connecting"
        case .live: return "live"
        case .reconnecting: return "reconnecting"
        case .failed: return "failed"
        case .stopped: return "stopped"
        }
    }
}
