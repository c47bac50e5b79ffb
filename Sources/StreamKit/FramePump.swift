import CFFmpeg
import Foundation

/// The read → decode → deliver loop of one open connection, whatever its packet source (FFmpeg's
/// demuxer or the Bambu JPEG transport). Live sources are shown as frames arrive (some printers'
/// timestamps never advance); files are paced by their timestamps and may loop.
struct FramePump {
    /// How a connection's loop ended.
    enum Result {
        case cancelled
        /// A single-image input (an HTTP snapshot) was read to its end.
        case stillImageDone
        case failed(FFmpegError, sawPacket: Bool)
    }

    let input: any PacketSource
    let decoder: VideoDecoder
    let source: StreamSource
    /// How long a live network source may stay silent (`SessionOptions.stallDeadline(for:)`).
    let stallTimeout: TimeInterval

    private var meter = StatsMeter()
    private var clock = PlaybackClock()
    private var framesSinceRewind = 0
    private var hidden = HiddenDecoding()
    private var deblocking = SmallViewDeblocking()

    init(input: any PacketSource, decoder: VideoDecoder, source: StreamSource, stallTimeout: TimeInterval) {
        self.input = input
        self.decoder = decoder
        self.source = source
        self.stallTimeout = stallTimeout
    }

    mutating func run(worker: SessionWorker, connectStarted: UInt64, wentLive: inout Bool) -> Result {
        guard let packet = av_packet_alloc() else { return .failed(FFmpegError(code: lw_averror(ENOMEM), stage: .read), sawPacket: false) }
        var frame = av_frame_alloc()
        var packetBox: UnsafeMutablePointer<AVPacket>? = packet
        defer {
            av_packet_free(&packetBox)
            av_frame_free(&frame)
        }
        guard let frame else { return .failed(FFmpegError(code: lw_averror(ENOMEM), stage: .read), sawPacket: false) }
        var sawPacket = false
        var firstFrame = true
        while !worker.isCancelled {
            do {
                try input.read(into: packet)
            } catch {
                guard error.code == lw_averror_eof() else { return .failed(error, sawPacket: sawPacket) }
                drain(frame: frame, worker: worker, connectStarted: connectStarted, wentLive: &wentLive, firstFrame: &firstFrame)
                if input.isStillImage { return .stillImageDone }
                guard case .file(_, loop: true) = source, framesSinceRewind > 0, rewind() else {
                    return .failed(error, sawPacket: sawPacket)
                }
                continue
            }
            defer { av_packet_unref(packet) }
            sawPacket = true
            meter.packet(bytes: Int(packet.pointee.size))
            if !firstFrame { worker.extendDeadline(seconds: source.isNetwork ? stallTimeout : nil) }
            if source.isNetwork, hidden.update(decoder: decoder, wantsPixels: worker.wantsPixels) {
                let keyframesOnly = decoder.keyframesOnly
                worker.updateStats { $0.keyframesOnly = keyframesOnly }
            }
            if deblocking.update(decoder: decoder, skip: worker.onlySmallViews && !worker.wantsCapture) {
                let skips = decoder.skipsLoopFilter
                worker.updateStats { $0.skipsLoopFilter = skips }
            }
            let begin = DispatchTime.now().uptimeNanoseconds
            do {
                try decoder.send(packet)
                while try decoder.receive(into: frame) {
                    meter.decoded(nanos: DispatchTime.now().uptimeNanoseconds - begin)
                    try handle(frame, worker: worker, connectStarted: connectStarted, wentLive: &wentLive, firstFrame: &firstFrame)
                }
            } catch {
                return .failed(error, sawPacket: sawPacket)
            }
        }
        return .cancelled
    }

    /// Flushes the decoder at the end of the input and shows the frames it still held.
    private mutating func drain(frame: UnsafeMutablePointer<AVFrame>, worker: SessionWorker, connectStarted: UInt64,
                                wentLive: inout Bool, firstFrame: inout Bool) {
        try? decoder.send(nil)
        while (try? decoder.receive(into: frame)) == true {
            try? handle(frame, worker: worker, connectStarted: connectStarted, wentLive: &wentLive, firstFrame: &firstFrame)
        }
        decoder.flush()
    }

    private mutating func rewind() -> Bool {
        guard (try? input.rewind()) != nil else { return false }
        clock = PlaybackClock()
        framesSinceRewind = 0
        return true
    }

    private mutating func handle(_ frame: UnsafeMutablePointer<AVFrame>, worker: SessionWorker, connectStarted: UInt64,
                                 wentLive: inout Bool, firstFrame: inout Bool) throws(FFmpegError) {
        defer { av_frame_unref(frame) }
        framesSinceRewind += 1
        worker.updateStats { $0.decodedFrames += 1 }
        if firstFrame {
            firstFrame = false
            let size = PixelSize(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - connectStarted) / 1e9
            worker.updateStats {
                $0.sourceSize = size
                if !wentLive { $0.timeToFirstFrame = elapsed }
            }
            wentLive = true
            worker.report(.live)
            worker.extendDeadline(seconds: source.isNetwork ? stallTimeout : nil)
        }
        if !source.isNetwork {
            guard worker.pace(seconds: clock.wait(pts: frame.pointee.best_effort_timestamp, timeBase: input.timeBase)) else { return }
        }
        let fitForCapture = deblocking.isClean(frame, decoder: decoder)
        if hidden.mayShow(frame) { try worker.deliver(frame, meter: &meter, capture: fitForCapture) }
        var stats = StreamStats()
        if meter.roll(into: &stats) {
            worker.updateStats {
                $0.framesPerSecond = stats.framesPerSecond
                $0.kilobitsPerSecond = stats.kilobitsPerSecond
                $0.decodeMilliseconds = stats.decodeMilliseconds
                $0.convertMilliseconds = stats.convertMilliseconds
            }
        }
    }
}

/// Keyframe-only decoding for a live session no view has shown for `delay`: full decoding resumes as
/// soon as a view (or a snapshot) wants pixels, and frames are delivered again only from the next
/// keyframe on, so nothing predicted from skipped pictures is ever shown.
struct HiddenDecoding {
    static let delay: UInt64 = 3_000_000_000
    private var hiddenSince: UInt64?
    private var awaitingKeyframe = false

    /// Called before each packet; true when the decoder switched mode.
    mutating func update(decoder: VideoDecoder, wantsPixels: Bool) -> Bool {
        if wantsPixels {
            hiddenSince = nil
            guard decoder.keyframesOnly else { return false }
            decoder.keyframesOnly = false
            awaitingKeyframe = true
            return true
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let since = hiddenSince ?? now
        hiddenSince = since
        guard !decoder.keyframesOnly, now - since >= Self.delay else { return false }
        decoder.keyframesOnly = true
        return true
    }

    /// Whether a decoded frame may be delivered: after resuming, only from a keyframe on.
    mutating func mayShow(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        if awaitingKeyframe && frame.pointee.key_frame == 0 { return false }
        awaitingKeyframe = false
        return true
    }
}

/// No deblocking while every visible view is at most a third of the source's width (a mini window),
/// where its absence doesn't show; on again for a larger view or a snapshot. Pictures decoded
/// without it drift slightly from the encoder's until the next keyframe, so a full-resolution
/// snapshot is taken only from a frame decoded with the filter since a keyframe.
struct SmallViewDeblocking {
    /// The widest view, as a fraction of the source's width, that still skips the filter.
    static func isSmall(viewWidth: Int, sourceWidth: Int) -> Bool { viewWidth * 3 <= sourceWidth }

    private var cleanSinceKeyframe = true

    /// Called before each packet; true when the decoder switched mode.
    mutating func update(decoder: VideoDecoder, skip: Bool) -> Bool {
        guard decoder.skipsLoopFilter != skip else { return false }
        decoder.skipsLoopFilter = skip
        cleanSinceKeyframe = false
        return true
    }

    /// Whether `frame` is the encoder's picture: decoded with the filter, from a keyframe on.
    mutating func isClean(_ frame: UnsafeMutablePointer<AVFrame>, decoder: VideoDecoder) -> Bool {
        guard !decoder.skipsLoopFilter else { return false }
        if frame.pointee.key_frame != 0 { cleanSinceKeyframe = true }
        return cleanSinceKeyframe
    }
}

/// Maps a file's timestamps to wall-clock due times, so a file plays at its own speed.
struct PlaybackClock {
    private var origin: (pts: Int64, wall: UInt64)?

    /// Seconds to wait before showing the frame with `pts`; 0 when it is due or has no timestamp.
    mutating func wait(pts: Int64, timeBase: AVRational) -> TimeInterval {
        let now = DispatchTime.now().uptimeNanoseconds
        guard pts != lw_nopts_value(), timeBase.den > 0 else { return 0 }
        guard let origin else {
            self.origin = (pts, now)
            return 0
        }
        let offset = Double(pts - origin.pts) * Double(timeBase.num) / Double(timeBase.den)
        let due = Double(origin.wall) / 1e9 + offset
        let wait = due - Double(now) / 1e9
        if wait < -1 || wait > 5 {
            self.origin = (pts, now)
            return 0
        }
        return max(0, wait)
    }
}
