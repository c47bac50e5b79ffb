import Foundation

/// One view's attachment to a session: what it displays (pixel size, visibility), where its events
/// go, and its handlers. Views never hold the decoder or the connection, only this ticket.
public final class StreamConsumer: @unchecked Sendable {
    public let session: StreamSession
    let executor: EventExecutor
    let onState: (SessionState) -> Void
    let onFrame: (VideoFrame) -> Void
    // Guarded by the session's lock.
    var display: Display
    var attached = true

    /// What a view shows now: the pixel size it covers, whether it is on screen at all, and the
    /// pixel order its renderer takes.
    struct Display {
        var size: PixelSize
        var visible: Bool
        var order: PixelOrder
    }

    init(session: StreamSession, executor: EventExecutor, display: Display,
         onState: @escaping (SessionState) -> Void, onFrame: @escaping (VideoFrame) -> Void) {
        self.session = session
        self.executor = executor
        self.display = display
        self.onState = onState
        self.onFrame = onFrame
    }

    /// Tells the session the pixel size this view shows, whether it is on screen and the pixel order
    /// it wants. Cheap; call it on every allocation, visibility or renderer change.
    public func update(displaySize: PixelSize, visible: Bool, order: PixelOrder = .bgra) {
        session.update(self, displaySize: displaySize, visible: visible, order: order)
    }

    /// Leaves the session; the last consumer to leave stops it. No handler runs after this returns
    /// (when called on the consumer's own executor).
    public func detach() {
        session.detach(self)
    }
}
