import Foundation

/// Figures a stats overlay and `layerwatch probe` show about one session.
public struct StreamStats: Equatable, Sendable {
    public var codec: String?
    /// While a WebRTC camera's MJPEG fallback plays: why WebRTC failed. Nil while the source's own
    /// path plays.
    public var fallbackCause: StreamFailure?
    /// The stream's own resolution.
    public var sourceSize: PixelSize?
    /// The size frames are converted to now (nil while no visible view wants pixels).
    public var outputSize: PixelSize?
    public var framesPerSecond: Double = 0
    public var kilobitsPerSecond: Double = 0
    /// Mean decode and convert time per frame over the last second, in milliseconds.
    public var decodeMilliseconds: Double = 0
    public var convertMilliseconds: Double = 0
    /// Frames replaced in the mailbox before any view took them.
    public var droppedFrames: UInt64 = 0
    public var decodedFrames: UInt64 = 0
    public var convertedFrames: UInt64 = 0
    /// From the start of the connection that went live to its first decoded frame.
    public var timeToFirstFrame: TimeInterval?
    /// Network sources: from the start of that connection until the stream was open (RTSP: PLAY
    /// answered). The rest of `timeToFirstFrame` is mostly the wait for the camera's next keyframe.
    public var timeToOpen: TimeInterval?
    /// Whether the demuxer had to probe stream info (false when the SDP sufficed).
    public var probedStreamInfo: Bool?
    /// True while no view has wanted pixels for a few seconds and only keyframes are decoded.
    public var keyframesOnly = false
    /// True while every visible view is small (a mini window) and deblocking is skipped.
    public var skipsLoopFilter = false

    public init() {}
}

/// Accumulates per-frame costs and rolls them into `StreamStats` once a second (the very first
/// window after a quarter second, so short probes get figures too).
struct StatsMeter {
    private var windowStart = DispatchTime.now().uptimeNanoseconds
    private var window: Double = 0.25
    private var frames = 0
    private var bytes = 0
    private var decodeNanos: UInt64 = 0
    private var convertNanos: UInt64 = 0
    private var conversions = 0

    mutating func packet(bytes count: Int) { bytes += count }

    mutating func decoded(nanos: UInt64) {
        frames += 1
        decodeNanos += nanos
    }

    mutating func converted(nanos: UInt64) {
        conversions += 1
        convertNanos += nanos
    }

    /// Writes the window's rates into `stats` when a second has passed; true when it did.
    mutating func roll(into stats: inout StreamStats) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed = Double(now - windowStart) / 1e9
        guard elapsed >= window, frames > 1 else { return false }
        stats.framesPerSecond = Double(frames) / elapsed
        stats.kilobitsPerSecond = Double(bytes) * 8 / 1000 / elapsed
        stats.decodeMilliseconds = frames > 0 ? Double(decodeNanos) / 1e6 / Double(frames) : 0
        stats.convertMilliseconds = conversions > 0 ? Double(convertNanos) / 1e6 / Double(conversions) : 0
        self = StatsMeter()
        window = 1
        return true
    }
}
