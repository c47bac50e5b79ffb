import Foundation

/// Connects to a source once, decodes a few frames and reports what happened: the engine behind
/// `layerwatch probe` and the add-printer dialog's "Test connection". Never retries: the first
/// failure is the answer.
public enum StreamProbe {
    /// What a probe saw. Every text in it is redacted.
    public struct Report: Codable, Equatable, Sendable {
        /// One state change and when it happened, from the start of the probe.
        public struct Transition: Codable, Equatable, Sendable {
            public var seconds: Double
            public var state: String
            public var detail: String?
        }

        /// The classified error: its stable kind and the sentence for the user.
        public struct Failure: Codable, Equatable, Sendable {
            public var kind: String
            public var message: String
        }

        public var url: String
        public var ok: Bool
        public var codec: String?
        public var width: Int?
        public var height: Int?
        public var frames: Int
        public var timeToFirstFrame: Double?
        public var timeToOpen: Double?
        public var framesPerSecond: Double?
        public var kilobitsPerSecond: Double?
        public var decodeMilliseconds: Double?
        public var convertMilliseconds: Double?
        public var probedStreamInfo: Bool?
        /// Why WebRTC failed when a WebRTC camera's MJPEG fallback played instead.
        public var fallbackCause: Failure?
        public var transitions: [Transition]
        public var error: Failure?
    }

    /// Runs until `frames` frames were decoded, the source failed, or `timeout` passed; failures
    /// worded in `terms` when the camera's printer family gave some.
    public static func run(source: StreamSource, frames wanted: Int, timeout: TimeInterval,
                           options: SessionOptions = SessionOptions(), terms: CameraTerms? = nil) -> Report {
        let session = StreamSession(source: source, options: options, terms: terms)
        let queue = DispatchQueue(label: "layerwatch.probe")
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        var report = Report(url: source.description, ok: false, frames: 0, transitions: [])
        var firstFrameAt: Date?
        var lastFrameAt: Date?
        var finished = false

        func finish() {
            guard !finished else { return }
            finished = true
            done.signal()
        }

        let consumer = session.attach(executor: queue, onState: { state in
            if state == .idle { return }
            report.transitions.append(.init(seconds: Date().timeIntervalSince(start), state: state.name,
                                            detail: Self.detail(of: state, terms: terms)))
            switch state {
            case .failed(let failure), .reconnecting(_, _, let failure):
                report.error = .init(kind: failure.kind, message: failure.userMessage(in: terms))
                finish()
            default: break
            }
        }, onFrame: { frame in
            guard !finished else { return }
            report.frames += 1
            report.width = frame.sourceWidth
            report.height = frame.sourceHeight
            if firstFrameAt == nil { firstFrameAt = Date() }
            lastFrameAt = Date()
            if report.frames >= wanted { finish() }
        })
        if done.wait(timeout: .now() + timeout) == .timedOut {
            queue.sync {
                if report.error == nil && report.frames < wanted {
                    report.error = .init(kind: StreamFailure.timeout.kind,
                                         message: String(format: tr("Only %ld of %ld frames arrived within %ld s."),
                                                         report.frames, wanted, Int(timeout)))
                }
                finished = true
            }
        }
        session.stop()
        consumer.detach()
        return queue.sync {
            let stats = session.stats
            report.ok = report.error == nil
            report.codec = stats.codec
            report.timeToFirstFrame = stats.timeToFirstFrame
            report.timeToOpen = stats.timeToOpen
            report.probedStreamInfo = stats.probedStreamInfo
            report.fallbackCause = stats.fallbackCause.map { .init(kind: $0.kind, message: $0.userMessage) }
            report.decodeMilliseconds = stats.decodeMilliseconds
            report.convertMilliseconds = stats.convertMilliseconds
            report.kilobitsPerSecond = stats.kilobitsPerSecond
            if let first = firstFrameAt, let last = lastFrameAt, report.frames > 1, last > first {
                report.framesPerSecond = Double(report.frames - 1) / last.timeIntervalSince(first)
            }
            return report
        }
    }

    private static func detail(of state: SessionState, terms: CameraTerms?) -> String? {
        switch state {
        case .failed(let failure): return failure.userMessage(in: terms)
        case .reconnecting(let attempt, _, let failure):
            return String(format: tr("attempt %ld after: %@"), attempt, failure.userMessage(in: terms))
        default: return nil
        }
    }
}
