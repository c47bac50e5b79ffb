import Foundation
import StreamKit

/// A consumer that records what a session delivers (states, frames) so a test can await a state or
/// a frame instead of sleeping.
public final class SessionRecorder: @unchecked Sendable {
    public let queue = DispatchQueue(label: "layerwatch.test.recorder")
    private let condition = NSCondition()
    private var recordedStates: [SessionState] = []
    private var recordedFrames = 0
    private var newest: VideoFrame?
    public private(set) var consumer: StreamConsumer!

    public init(session: StreamSession, displaySize: PixelSize = .full, visible: Bool = true) {
        consumer = session.attach(executor: queue, displaySize: displaySize, visible: visible, onState: { [self] state in
            condition.withLock {
                recordedStates.append(state)
                condition.broadcast()
            }
        }, onFrame: { [self] frame in
            condition.withLock {
                recordedFrames += 1
                newest = frame
                condition.broadcast()
            }
        })
    }

    public var states: [SessionState] { condition.withLock { recordedStates } }
    public var frameCount: Int { condition.withLock { recordedFrames } }
    public var lastFrame: VideoFrame? { condition.withLock { newest } }

    /// Waits until `predicate` holds over what was recorded, or `timeout` passes.
    public func wait(timeout: TimeInterval, until predicate: (_ states: [SessionState], _ frames: Int) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while !predicate(recordedStates, recordedFrames) {
                guard condition.wait(until: deadline) else { return predicate(recordedStates, recordedFrames) }
            }
            return true
        }
    }

    /// The first recorded state matching `match`, awaited up to `timeout`.
    public func waitForState(timeout: TimeInterval, _ match: @escaping (SessionState) -> Bool) -> SessionState? {
        var found: SessionState?
        _ = wait(timeout: timeout) { states, _ in
            found = states.first(where: match)
            return found != nil
        }
        return found
    }

    /// The newest frame once `count` frames have arrived, awaited up to `timeout`.
    public func waitForFrames(_ count: Int, timeout: TimeInterval) -> VideoFrame? {
        wait(timeout: timeout) { _, frames in frames >= count } ? lastFrame : nil
    }

    /// Detaches on the recorder's own queue, so no handler runs afterwards.
    public func detach() {
        queue.sync { consumer.detach() }
    }

    /// The attempt numbers of the reconnects recorded so far, in order.
    public var reconnectAttempts: [Int] {
        states.compactMap { if case .reconnecting(let attempt, _, _) = $0 { attempt } else { nil } }
    }
}

extension SessionState {
    public var isReconnecting: Bool {
        if case .reconnecting = self { return true }
        return false
    }

    /// The failure carried by `failed` or `reconnecting`.
    public var failure: StreamFailure? {
        switch self {
        case .failed(let failure), .reconnecting(_, _, let failure): return failure
        default: return nil
        }
    }

    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }
}
