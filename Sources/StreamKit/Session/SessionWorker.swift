import CFFmpeg
import Foundation

/// The thread behind a `StreamSession`: connect → read → decode → convert, and reconnect with
/// backoff. One worker is one run; a restart cancels it and starts a new one (a new generation), so
/// no state is shared between runs except through the session.
final class SessionWorker: FramePumpHost, @unchecked Sendable {
    let generation: Int
    private weak var session: StreamSession?
    private let source: StreamSource
    private let options: SessionOptions
    private let gate = InterruptGate()
    private let finished = DispatchSemaphore(value: 0)
    private let classifier: FailureClassifier
    private let capture: FFmpegLog.Capture
    private let scaler = FrameScaler()
    /// Converts a zoomed view's region (see `scaler(for:)`).
    private let zoomScaler = FrameScaler()
    /// Converts full-size captures, so they don't thrash the view scaler's cached context.
    private let captureScaler = FrameScaler()
    private var sequence: UInt64 = 0
    /// The session's number for the input being read (see `StreamSession.newConnectionNumber`).
    private var connection = 0

    init(session: StreamSession, generation: Int) {
        self.session = session
        self.generation = generation
        self.source = session.source
        self.options = session.options
        self.classifier = FailureClassifier(source: session.source, redactor: session.redactor)
        self.capture = FFmpegLog.Capture(redactor: session.redactor)
    }

    /// Starts the thread; it waits for `previous` to finish first (one client per printer).
    func start(after previous: SessionWorker?) {
        let thread = Thread { [self] in
            // Named from inside, in Linux's 15 bytes: a name set before the start never reaches /proc.
            Thread.current.name = StreamSession.workerThreadName
            FrameLimits.applyFFmpegAllocationLimit
            previous?.waitUntilFinished()
            FFmpegLog.begin(capture)
            run()
            FFmpegLog.end()
            finished.signal()
        }
        thread.start()
    }

    /// Asks the thread to end: interrupts FFmpeg's blocking call and any wait.
    func cancel() {
        gate.cancel()
    }

    /// Blocks until the thread has ended (at once if it already has).
    func waitUntilFinished() {
        finished.wait()
        finished.signal()
    }

    // MARK: The run

    private func run() {
        var attempt = 0
        while !gate.isCancelled {
            report(.connecting)
            let outcome = connectRound()
            guard case .failed(let failure, let livedFor, _) = outcome, !gate.isCancelled else { return }
            if livedFor >= options.backoff.healthyAfter { attempt = 0 }
            guard failure.isRetryable, source.isNetwork else {
                report(.failed(failure))
                return
            }
            attempt += 1
            let delay = options.backoff.delay(attempt: attempt)
            report(.reconnecting(attempt: attempt, retryAt: Date().addingTimeInterval(delay), after: failure))
            guard gate.wait(seconds: delay) else { return }
        }
    }

    /// How one connection attempt ended, for the reconnect loop.
    private enum Outcome {
        case cancelled
        /// `livedFor`: seconds from the attempt's first frame to its failure (0 if it had none);
        /// `wentLive`: whether it had one.
        case failed(StreamFailure, livedFor: TimeInterval, wentLive: Bool)
    }

    /// One round: the source, and when it is a WebRTC camera with an MJPEG fallback whose WebRTC
    /// failed before its first picture, the fallback at once (the WebRTC connection is closed by
    /// then: one connection at a time). Every round starts with WebRTC, so a camera whose WebRTC
    /// comes back gets it at the next reconnect; a fallback that plays is kept until it fails.
    private func connectRound() -> Outcome {
        let outcome = connectAndStream(source)
        guard let fallback = source.mjpegFallback, case .failed(let failure, _, wentLive: false) = outcome,
              !gate.isCancelled else { return outcome }
        StreamLog.log(.info, "\(source): WebRTC failed (\(failure.kind) — \(failure.userMessage)); playing the MJPEG fallback")
        let fallen = connectAndStream(fallback, fallbackCause: failure)
        // Neither played: a fallback that will never play (a wrong path) does not stop WebRTC from
        // being tried again.
        if case .failed(let second, _, wentLive: false) = fallen, !second.isRetryable, failure.isRetryable { return outcome }
        return fallen
    }

    /// One connection to `playing` (the source, or its fallback after `fallbackCause`): open, then
    /// read and decode until it fails or the session stops. HTTP snapshot URLs are fetched again
    /// every `snapshotInterval` within the same connection attempt.
    private func connectAndStream(_ playing: StreamSource, fallbackCause: StreamFailure? = nil) -> Outcome {
        var pump = FramePump(host: self, source: playing, stallTimeout: options.stallDeadline(for: playing),
                             connectStarted: DispatchTime.now().uptimeNanoseconds)
        while true {
            capture.clear()
            gate.arm(seconds: options.connectDeadline(for: playing))
            let input: any PacketSource
            let decoder: VideoDecoder
            do {
                input = try openPacketSource(playing, gate: gate, options: options)
                decoder = try input.makeDecoder(threads: options.decoderThreads)
            } catch {
                return gate.isCancelled ? .cancelled : failed(classify(error, sawPacket: false), pump)
            }
            connection = session?.newConnectionNumber() ?? 0
            let opened = Double(DispatchTime.now().uptimeNanoseconds - pump.connectStarted) / 1e9
            let firstOpen = !pump.wentLive
            updateStats {
                $0.codec = decoder.codecName
                $0.probedStreamInfo = input.probedStreamInfo
                $0.fallbackCause = fallbackCause
                if firstOpen, playing.isNetwork { $0.timeToOpen = opened }
            }
            let result = pump.run(input, decoder: decoder)
            if gate.isCancelled { return .cancelled }
            if case .stillImageDone = result, pump.wentLive {
                guard gate.wait(seconds: options.snapshotInterval) else { return .cancelled }
                continue
            }
            if case .failed(let error, let sawPacket) = result {
                return failed(classify(error, sawPacket: sawPacket), pump)
            }
            return failed(.endOfStream, pump)
        }
    }

    private func failed(_ failure: StreamFailure, _ pump: FramePump) -> Outcome {
        .failed(failure, livedFor: pump.livedFor, wentLive: pump.wentLive)
    }

    private func classify(_ error: FFmpegError, sawPacket: Bool) -> StreamFailure {
        classifier.classify(error, log: capture, deadlineExpired: gate.deadlineExpired, sawPacket: sawPacket)
    }

    // MARK: FramePumpHost

    var isCancelled: Bool { gate.isCancelled }

    /// Whether any view (or a snapshot) wants pixels now.
    var wantsEveryFrame: Bool { session?.wantsEveryFrame ?? false }

    /// Whether a full-resolution snapshot is waiting for a frame.
    var wantsCapture: Bool { session?.wantsCapture ?? false }

    /// Whether the last frame went only to small views (see `SmallViewDeblocking`), when allowed.
    var onlySmallViews: Bool { options.skipsDeblockingForSmallViews && lastFrameOnlySmallViews }
    private var lastFrameOnlySmallViews = false

    /// Moves the stall deadline on after a packet or frame (never reviving an expired one).
    func extendDeadline(seconds: TimeInterval?) {
        gate.extend(seconds: seconds)
    }

    /// Sleeps until a file frame is due; false when cancelled.
    func pace(seconds: TimeInterval) -> Bool {
        seconds <= 0 || gate.wait(seconds: seconds)
    }

    func report(_ state: SessionState) {
        session?.setState(state, generation: generation)
    }

    func updateStats(_ update: (inout StreamStats) -> Void) {
        session?.setStats(update, generation: generation)
    }

    func record(_ packet: UnsafeMutablePointer<AVPacket>, from input: any PacketSource) {
        guard let session, let recording = session.recordingForPackets else { return }
        recording.take(packet, stream: input.recordedStream, connection: connection, size: session.stats.sourceSize)
    }

    /// Converts and publishes a decoded frame if any visible consumer wants pixels, and serves
    /// waiting full-resolution captures when the frame is fit for one (`capture`).
    func deliver(_ frame: UnsafeMutablePointer<AVFrame>, meter: inout StatsMeter, capture: Bool) throws(FFmpegError) {
        guard let session else { return }
        let sourceSize = PixelSize(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        if capture, session.wantsCapture {
            session.completeCaptures(with: try? captureScaler.convert(frame, to: sourceSize, sequence: sequence))
        }
        let targets = session.conversionTargets(sourceWidth: sourceSize.width, sourceHeight: sourceSize.height)
        lastFrameOnlySmallViews = !targets.isEmpty && targets.allSatisfy {
            SmallViewDeblocking.isSmall(viewWidth: $0.size.width, sourceWidth: $0.pixels.width)
        }
        guard !targets.isEmpty else { return }
        let begin = DispatchTime.now().uptimeNanoseconds
        sequence += 1
        var frames: [PictureRegion: VideoFrame] = [:]
        for target in targets {
            frames[target.region] = try scaler(for: target).convert(frame, region: target.pixels, to: target.size,
                                                                    order: target.order, sequence: sequence)
        }
        meter.converted(nanos: DispatchTime.now().uptimeNanoseconds - begin)
        session.publish(frames, generation: generation)
    }

    /// The scaler for `target`: the whole picture's, or a zoomed region's (each keeps its own
    /// cached swscale contexts and scratch frames, so a zoomed tab beside a mini window showing
    /// the whole picture does not rebuild them every frame).
    private func scaler(for target: ConversionTarget) -> FrameScaler {
        if target.region.isWhole { return scaler }
        return zoomScaler
    }
}
