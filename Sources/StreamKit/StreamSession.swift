import Foundation

/// One upstream connection and decoder for one source, shared by every view of it: printers accept a
/// single camera client, so a tab and its mini window attach to the same session. It runs on its own
/// thread while any consumer is attached, converts frames to the largest size a visible consumer
/// shows, and hands each consumer only the newest frame (a latest-frame-wins mailbox, never a queue).
public final class StreamSession: @unchecked Sendable {
    public let source: StreamSource
    public let options: SessionOptions
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

    public init(source: StreamSource, options: SessionOptions = SessionOptions()) {
        self.source = source
        self.options = options
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

    /// Delivers a frame at the stream's full resolution on `executor` (for a snapshot), whatever size
    /// views are shown at: the newest frame if it is full size, else the next decoded frame converted
    /// once more. Nil when the session is not live.
    public func captureFullResolution(executor: EventExecutor, completion: @escaping (VideoFrame?) -> Void) {
        let immediate: VideoFrame?? = lock.withLock {
            guard currentState == .live else { return .some(nil) }
            if let newest = mailbox.newest, newest.width == newest.sourceWidth, newest.height == newest.sourceHeight {
                return .some(newest)
            }
            captureRequests.append((executor, completion))
            return .none
        }
        if case .some(let frame) = immediate {
            executor.execute { completion(frame) }
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
            StreamLog.log(.info, "\(source): \(cause.kind) — \(cause.userMessage) Reconnect \(attempt) in \(delay) s.")
        case .failed(let failure):
            StreamLog.log(.info, "\(source): \(failure.kind) — \(failure.userMessage)")
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

    /// The size and pixel order to convert to, or nil when no visible consumer wants pixels. The order
    /// is the first visible consumer's (all views of one process share a renderer, so they agree).
    func conversionTarget(sourceWidth: Int, sourceHeight: Int) -> (size: PixelSize, order: PixelOrder)? {
        let displays = lock.withLock { consumers.map(\.display).filter(\.visible) }
        guard let size = FrameScaler.targetSize(sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                                                displays: displays.map(\.size)) else { return nil }
        return (size, displays.first?.order ?? .bgra)
    }

    /// Puts `frame` in the mailbox and wakes each visible consumer that has no wake-up pending; each
    /// wake-up hands its consumer whatever frame is newest when it runs.
    func publish(_ frame: VideoFrame, generation: Int) {
        let targets: [StreamConsumer] = lock.withLock {
            guard isCurrentLocked(generation) else { return [] }
            if mailbox.put(frame) { currentStats.droppedFrames += 1 }
            currentStats.convertedFrames += 1
            currentStats.outputSize = PixelSize(width: frame.width, height: frame.height)
            return mailbox.wakeUps(for: consumers.filter(\.display.visible))
        }
        for consumer in targets {
            consumer.executor.execute { [self] in
                let newest: VideoFrame? = lock.withLock {
                    let newest = mailbox.take(for: consumer)
                    return consumer.attached ? newest : nil
                }
                if let newest { consumer.onFrame(newest) }
            }
        }
    }
}
