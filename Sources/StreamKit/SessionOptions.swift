import Foundation

/// Tunables of a session. The defaults are what a printer camera needs; tests shorten them.
public struct SessionOptions: Sendable {
    /// Longest time from starting a connection to its first packet (a silent host fails after this).
    public var connectTimeout: TimeInterval = 5
    /// Longest gap between packets of a live stream before it counts as stalled and is reconnected.
    public var stallTimeout: TimeInterval = 5
    /// Reconnect delays: `initial`, doubled each attempt, capped at `maximum`, with ±`jitter` spread.
    public var backoff = Backoff()
    /// How often a JPEG snapshot URL is fetched again.
    public var snapshotInterval: TimeInterval = 1
    /// Decoder threads (slice threading only, so no frames of latency are added).
    public var decoderThreads: Int = 2

    public init() {}
}
