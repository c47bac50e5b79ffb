import CFFmpeg
import Foundation

/// What a `FramePump` needs from the thread that runs it (a `SessionWorker`): whether to stop, what
/// the views want, and where states, stats and frames go. Kept this narrow so the pump can be read,
/// and driven, without the rest of the worker.
protocol FramePumpHost: AnyObject {
    /// The session is stopping: leave the loop.
    var isCancelled: Bool { get }
    /// Whether any visible view (or a snapshot) wants every frame, not a picture at each keyframe.
    var wantsEveryFrame: Bool { get }
    /// Whether a full-resolution snapshot is waiting for a frame.
    var wantsCapture: Bool { get }
    /// Whether the last frame went only to views small enough to skip deblocking.
    var onlySmallViews: Bool { get }
    /// Moves the stall deadline on after a packet or frame (nil: no deadline).
    func extendDeadline(seconds: TimeInterval?)
    /// Sleeps until a file frame is due; false when cancelled meanwhile.
    func pace(seconds: TimeInterval) -> Bool
    func report(_ state: SessionState)
    func updateStats(_ update: (inout StreamStats) -> Void)
    /// Hands a packet, once decoded, to the session's recording, if one runs.
    func record(_ packet: UnsafeMutablePointer<AVPacket>, from input: any PacketSource)
    /// Converts and publishes a decoded frame for the views; serves a waiting snapshot when the frame
    /// is fit for one (`capture`).
    func deliver(_ frame: UnsafeMutablePointer<AVFrame>, meter: inout StatsMeter, capture: Bool) throws(FFmpegError)
}

/// The read → decode → deliver loop of one connection attempt, whatever its packet source (FFmpeg's
/// demuxer or the Bambu JPEG transport), and the state of that attempt: when it started, whether it
/// went live, whether the first frame of the open input is still to come. An HTTP snapshot URL is
/// opened once per picture within one attempt, so `run` may be called several times. Live sources
/// are shown as frames arrive (some printers' timestamps never advance); files are paced by their
/// timestamps and may loop.
struct FramePump {
    /// How reading one open input ended.
    enum Result {
        case cancelled
        /// A single-image input (an HTTP snapshot) was read to its end.
        case stillImageDone
        case failed(FFmpegError, sawPacket: Bool)
    }

    let source: StreamSource
    /// How long a live network source may stay silent (`SessionOptions.stallDeadline(for:)`).
    let stallTimeout: TimeInterval
    /// When this attempt began (monotonic ns); time to first frame counts from here.
    let connectStarted: UInt64
    /// Whether this attempt has shown a frame.
    var wentLive: Bool { liveSince != nil }
    /// When this attempt showed its first frame (monotonic ns).
    private(set) var liveSince: UInt64?

    /// Seconds since the attempt's first frame; 0 before it.
    var livedFor: TimeInterval {
        liveSince.map { Double(DispatchTime.now().uptimeNanoseconds - $0) / 1e9 } ?? 0
    }

    private unowned let host: any FramePumpHost
    private var firstFrameOfInput = true
    private var meter = StatsMeter()
    private var clock = PlaybackClock()
    private var framesSinceRewind = 0
    private var hidden = HiddenDecoding()
    private var deblocking = SmallViewDeblocking()

    init(host: any FramePumpHost, source: StreamSource, stallTimeout: TimeInterval, connectStarted: UInt64) {
        self.host = host
        self.source = source
        self.stallTimeout = stallTimeout
        self.connectStarted = connectStarted
    }

    /// Reads `input` through `decoder` until it fails, ends or the session stops.
    mutating func run(_ input: any PacketSource, decoder: VideoDecoder) -> Result {
        firstFrameOfInput = true
        hidden = HiddenDecoding()
        deblocking = SmallViewDeblocking()
        guard let packet = av_packet_alloc() else { return .failed(FFmpegError(code: lw_averror(ENOMEM), stage: .read), sawPacket: false) }
        var frame = av_frame_alloc()
        var packetBox: UnsafeMutablePointer<AVPacket>? = packet
        defer {
            av_packet_free(&packetBox)
            av_frame_free(&frame)
        }
        guard let frame else { return .failed(FFmpegError(code: lw_averror(ENOMEM), stage: .read), sawPacket: false) }
        var sawPacket = false
        while !host.isCancelled {
            do {
                try input.read(into: packet)
            } catch {
                guard error.code == lw_averror_eof() else { return .failed(error, sawPacket: sawPacket) }
                drain(frame, input: input, decoder: decoder)
                if input.isStillImage { return .stillImageDone }
                guard case .file(_, loop: true) = source, framesSinceRewind > 0, rewind(input) else {
                    return .failed(error, sawPacket: sawPacket)
                }
                continue
            }
            defer { av_packet_unref(packet) }
            sawPacket = true
            meter.packet(bytes: Int(packet.pointee.size))
            if !firstFrameOfInput { host.extendDeadline(seconds: source.isNetwork ? stallTimeout : nil) }
            if source.isNetwork, hidden.update(decoder: decoder, wantsEveryFrame: host.wantsEveryFrame) {
                let keyframesOnly = decoder.keyframesOnly
                host.updateStats { $0.keyframesOnly = keyframesOnly }
            }
            if deblocking.update(decoder: decoder, skip: host.onlySmallViews && !host.wantsCapture) {
                let skips = decoder.skipsLoopFilter
                host.updateStats { $0.skipsLoopFilter = skips }
            }
            let begin = DispatchTime.now().uptimeNanoseconds
            do {
                try decoder.send(packet)
                while try decoder.receive(into: frame) {
                    meter.decoded(nanos: DispatchTime.now().uptimeNanoseconds - begin)
                    try handle(frame, input: input, decoder: decoder)
                }
            } catch {
                return .failed(error, sawPacket: sawPacket)
            }
            host.record(packet, from: input)
        }
        return .cancelled
    }

    /// Flushes the decoder at the end of the input and shows the frames it still held.
    private mutating func drain(_ frame: UnsafeMutablePointer<AVFrame>, input: any PacketSource, decoder: VideoDecoder) {
        try? decoder.send(nil)
        while (try? decoder.receive(into: frame)) == true {
            try? handle(frame, input: input, decoder: decoder)
        }
        decoder.flush()
    }

    private mutating func rewind(_ input: any PacketSource) -> Bool {
        guard (try? input.rewind()) != nil else { return false }
        clock = PlaybackClock()
        framesSinceRewind = 0
        return true
    }

    private mutating func handle(_ frame: UnsafeMutablePointer<AVFrame>, input: any PacketSource,
                                 decoder: VideoDecoder) throws(FFmpegError) {
        defer { av_frame_unref(frame) }
        framesSinceRewind += 1
        host.updateStats { $0.decodedFrames += 1 }
        if firstFrameOfInput {
            firstFrameOfInput = false
            let size = PixelSize(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - connectStarted) / 1e9
            let first = !wentLive
            host.updateStats {
                $0.sourceSize = size
                if first { $0.timeToFirstFrame = elapsed }
            }
            if liveSince == nil { liveSince = DispatchTime.now().uptimeNanoseconds }
            host.report(.live)
            host.extendDeadline(seconds: source.isNetwork ? stallTimeout : nil)
        }
        if !source.isNetwork {
            guard host.pace(seconds: clock.wait(pts: frame.pointee.best_effort_timestamp, timeBase: input.timeBase)) else { return }
        }
        let fitForCapture = deblocking.isClean(frame, decoder: decoder)
        if hidden.mayShow(frame) { try host.deliver(frame, meter: &meter, capture: fitForCapture) }
        var stats = StreamStats()
        if meter.roll(into: &stats) {
            host.updateStats {
                $0.framesPerSecond = stats.framesPerSecond
                $0.kilobitsPerSecond = stats.kilobitsPerSecond
                $0.decodeMilliseconds = stats.decodeMilliseconds
                $0.convertMilliseconds = stats.convertMilliseconds
            }
        }
    }
}
