import Foundation

/// One upstream connection and decoder for one source, shared by every view of it: printers accept a
/// single camera client, so a tab and its mini window attach to the same session. It runs on its own
/// thread while any consumer is attached, converts frames to the largest size a visible consumer
/// shows (once for each part of the picture the views have in sight: all of it, or a zoomed view's
/// region), and hands each consumer only the newest frame (a latest-frame-wins mailbox, never a queue).
public final class StreamSession: @unchecked Sendable {
    public let source: StreamSource
    public let options: SessionOptions
    /// How its failures are worded (`StreamFailure.userMessage(in:)`); nil: as any camera's.
    public let terms: CameraTerms?
    let redactor: Redactor

    private let lock = NSLock()
    private var consumers: [StreamConsumer] = []
    private var worker: SessionWorker?
    /// The last cancelled worker, until a new one has waited for it to finish.
    private var retiring: SessionWorker?
    private var currentState: SessionState = .idle
    private var currentStats = StreamStats()
    private var mailbox = FrameMailbox()
    private var nextGeneration = 0
    private var captureRequests: [(executor: EventExecutor, completion: (VideoFrame?) -> Void)] = []
    private var recorder: StreamRecording?
    private var connections = 0

    /// The name of a session's worker thread, as /proc shows it (tests count them).
    public static let workerThreadName = "lw-session"

    /// A session of `source`, its failures worded in `terms` when its printer family gave some.
    public init(source: StreamSource, options: SessionOptions = SessionOptions(), terms: CameraTerms? = nil) {
        self.source = source
        self.options = options
        self.terms = terms
        self.redactor = Redactor(secrets: source.secrets)
    }

    public var state: SessionState { lock.withLock { currentState } }
    public var stats: StreamStats { lock.withLock { currentStats } }
    /// How many consumers are attached.
    public var consumerCount: Int { lock.withLock { consumers.count } }

    /// Attaches a view. Its handlers run on `executor`: `onState` with the current state first and then
    /// every change, `onFrame` with the newest frame whenever one was converted while it was visible.
    /// The session starts when its first consumer attaches.
    public func attach(executor: EventExecutor, displaySize: PixelSize = .full, visible: Bool = true,
                       onState: @escaping (SessionState) -> Void,
                       onFrame: @escaping (VideoFrame) -> Void) -> StreamConsumer {
        let consumer = StreamConsumer(session: self, executor: executor,
                                      display: .init(size: displaySize, visible: visible, order: .bgra),
                                      onState: onState, onFrame: onFrame)
        let state: SessionState = lock.withLock {
            consumers.append(consumer)
            if worker == nil { startWorkerLocked() }
            return currentState
        }
        deliver(state, to: consumer)
        return consumer
    }

    /// Stops now, whatever the state: the connection is closed and the thread has ended when this
    /// returns (within FFmpeg's interrupt poll, see `InterruptGate`). Consumers stay attached and see `.stopped`;
    /// `restart()` starts again.
    public func stop() {
        let stopping = lock.withLock { retireWorkerLocked() }
        stopping?.waitUntilFinished()
        setState(.stopped, generation: nil)
    }

    /// Reconnects at once: skips a reconnect wait, or tries again after a failure or a stop.
    public func restart() {
        lock.withLock {
            guard !consumers.isEmpty else { return }
            retireWorkerLocked()
            startWorkerLocked()
        }
    }

    /// How old the newest converted frame may be to answer a capture: a view that stopped taking
    /// frames (hidden, or gone while a keeper holds the connection) leaves an old one in the mailbox.
    static let freshCapture: TimeInterval = 1

    /// Delivers a frame at the stream's full resolution on `executor` (for a snapshot, a timelapse
    /// picture, a notification's), whatever size views are shown at: the newest frame if it is full
    /// size and fresh (`freshCapture`), else the next decoded frame converted once more. Nil when
    /// the session is not live.
    public func captureFullResolution(executor: EventExecutor, completion: @escaping (VideoFrame?) -> Void) {
        let immediate: VideoFrame?? = lock.withLock {
            guard currentState == .live else { return .some(nil) }
            if let newest = mailbox.newest(of: .whole), newest.isFullResolution, newest.age < Self.freshCapture {
                return .some(newest)
            }
            captureRequests.append((executor, completion))
            return .none
        }
        if case .some(let frame) = immediate {
            executor.execute { completion(frame) }
        }
    }

    // MARK: Recording

    /// The recording running now, if any (a finished one is gone).
    public var recording: StreamRecording? {
        lock.withLock {
            if recorder?.current.isFinished == true { recorder = nil }
            return recorder
        }
    }

    /// The recording to hand packets to: a plain read, for the session thread's every packet (the
    /// recording itself ignores packets once it has stopped).
    var recordingForPackets: StreamRecording? {
        lock.withLock { recorder }
    }

    /// Records the camera from the next keyframe into `url` (a new file; later parts are named from
    /// it), on this session's connection; returns the recording running already if there is one.
    public func startRecording(to url: URL) -> StreamRecording {
        lock.withLock {
            if let recorder, !recorder.current.isFinished { return recorder }
            let started = StreamRecording(url: url)
            recorder = started
            return started
        }
    }

    /// Stops the recording, if one runs; `completion` gets its final status (on the recording's queue).
    public func stopRecording(completion: (@Sendable (StreamRecording.Status) -> Void)? = nil) {
        let stopping = lock.withLock { () -> StreamRecording? in
            defer { recorder = nil }
            return recorder
        }
        stopping?.stop(completion: completion)
    }

    /// A number for a connection just opened, never given before in this session (a recording
    /// tells reconnects apart by it: an object's address may be reused).
    func newConnectionNumber() -> Int {
        lock.withLock {
            connections += 1
            return connections
        }
    }

    // MARK: Consumers

    func update(_ consumer: StreamConsumer, display: StreamConsumer.Display) {
        lock.withLock {
            consumer.display = display
        }
    }

    /// The last consumer to leave cancels the worker; its thread ends on its own within FFmpeg's
    /// interrupt poll, so the caller (a UI thread) never waits for it.
    func detach(_ consumer: StreamConsumer) {
        let stopped: Bool = lock.withLock {
            guard consumer.attached else { return false }
            consumer.attached = false
            consumers.removeAll { $0 === consumer }
            guard consumers.isEmpty else { return false }
            currentState = .stopped
            mailbox.empty()
            retireWorkerLocked()
            return true
        }
        // Nothing shows the camera any more: a recording ends with its last view.
        if stopped { stopRecording() }
        // A snapshot asked for just before the last view left gets its answer (none).
        if stopped { completeCaptures(with: nil) }
    }

    private func deliver(_ state: SessionState, to consumer: StreamConsumer) {
        consumer.executor.execute { [self] in
            guard lock.withLock({ consumer.attached }) else { return }
            consumer.onState(state)
        }
    }

    // MARK: Worker side

    /// Starts a worker thread; it first waits for the retiring one to close its connection, since a
    /// printer may accept only one client.
    private func startWorkerLocked() {
        nextGeneration += 1
        let started = SessionWorker(session: self, generation: nextGeneration)
        started.start(after: retiring)
        retiring = nil
        worker = started
    }

    /// Cancels the running worker (it ends on its own) and returns it.
    @discardableResult
    private func retireWorkerLocked() -> SessionWorker? {
        guard let running = worker else { return retiring }
        running.cancel()
        worker = nil
        retiring = running
        return running
    }

    /// Whether `generation` is still the running worker (events of a replaced one are dropped).
    private func isCurrentLocked(_ generation: Int?) -> Bool {
        generation == nil || worker?.generation == generation
    }

    func setState(_ state: SessionState, generation: Int?) {
        let (targets, changed, stats): ([StreamConsumer], Bool, StreamStats?) = lock.withLock {
            guard isCurrentLocked(generation), currentState != state else { return ([], false, nil) }
            currentState = state
            return (consumers, true, currentStats)
        }
        if changed { logTransition(to: state, stats: stats) }
        for consumer in targets { deliver(state, to: consumer) }
        if state != .live { completeCaptures(with: nil) }
    }

    private func logTransition(to state: SessionState, stats: StreamStats?) {
        switch state {
        case .live:
            let first = stats?.timeToFirstFrame.map { String(format: "%.3f s", $0) } ?? "?"
            let open = stats?.timeToOpen.map { String(format: " (stream open after %.3f s, then the wait for a keyframe)", $0) } ?? ""
            StreamLog.log(.debug, "\(source): live, first frame after \(first)\(open)")
        case .reconnecting(let attempt, let retryAt, let cause):
            let delay = String(format: "%.1f", retryAt.timeIntervalSinceNow)
            StreamLog.log(.info, "\(source): \(cause.kind) — \(cause.userMessage(in: terms)) Reconnect \(attempt) in \(delay) s.")
        case .failed(let failure):
            StreamLog.log(.info, "\(source): \(failure.kind) — \(failure.userMessage(in: terms))")
        default:
            StreamLog.log(.debug, "\(source): \(state.name)")
        }
    }

    func setStats(_ update: (inout StreamStats) -> Void, generation: Int) {
        lock.withLock {
            guard isCurrentLocked(generation) else { return }
            update(&currentStats)
        }
    }

    /// Whether a full-resolution capture is waiting for the next frame.
    var wantsCapture: Bool { lock.withLock { !captureRequests.isEmpty } }

    /// Hands `frame` (full size, or nil on failure) to every waiting capture.
    func completeCaptures(with frame: VideoFrame?) {
        let requests = lock.withLock { () -> [(executor: EventExecutor, completion: (VideoFrame?) -> Void)] in
            defer { captureRequests.removeAll() }
            return captureRequests
        }
        for request in requests {
            request.executor.execute { request.completion(frame) }
        }
    }

    /// Whether a visible consumer or a waiting capture wants every frame decoded, not only keyframes.
    var wantsEveryFrame: Bool {
        lock.withLock { consumers.contains { $0.display.visible && !$0.display.keyframesSuffice } || !captureRequests.isEmpty }
    }

    /// What to convert a `sourceWidth`×`sourceHeight` frame to: one target for each part of the
    /// picture the visible consumers have in sight (usually one, the whole picture), each the
    /// largest size a consumer shows it at; empty when no visible consumer wants pixels. The order is
    /// the first visible consumer's (all views of one process share a renderer, so they agree).
    func conversionTargets(sourceWidth: Int, sourceHeight: Int) -> [ConversionTarget] {
        let displays = lock.withLock { consumers.map(\.display).filter(\.visible) }
        var regions: [PictureRegion] = []
        for display in displays where !regions.contains(display.region) { regions.append(display.region) }
        return regions.compactMap { region in
            let pixels = region.pixels(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
            let sizes = displays.filter { $0.region == region }.map(\.size)
            return FrameScaler.targetSize(sourceWidth: pixels.width, sourceHeight: pixels.height, displays: sizes, upscale: !region.isWhole).map {
                ConversionTarget(region: region, pixels: pixels, size: $0, order: displays.first?.order ?? .bgra)
            }
        }
    }

    /// Puts `frames` (one decoded picture, converted for each part of it in sight) in the mailbox and
    /// wakes each visible consumer that has no wake-up pending; each wake-up hands its consumer
    /// whatever frame of its region is newest when it runs.
    func publish(_ frames: [PictureRegion: VideoFrame], generation: Int) {
        let targets: [StreamConsumer] = lock.withLock {
            guard isCurrentLocked(generation) else { return [] }
            currentStats.droppedFrames += UInt64(mailbox.put(frames))
            currentStats.convertedFrames += 1
            currentStats.outputSize = frames.values.max { $0.width * $0.height < $1.width * $1.height }
                .map { PixelSize(width: $0.width, height: $0.height) }
            return mailbox.wakeUps(for: consumers.filter(\.display.visible))
        }
        for consumer in targets {
            consumer.executor.execute { [self] in
                let newest: VideoFrame? = lock.withLock {
                    let newest = mailbox.take(for: consumer, region: consumer.display.region)
                    return consumer.attached ? newest : nil
                }
                if let newest { consumer.onFrame(newest) }
            }
        }
    }
}
