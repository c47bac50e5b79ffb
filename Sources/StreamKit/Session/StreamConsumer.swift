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

    /// What a view shows now: the pixel size it covers, whether it is on screen at all, the pixel
    /// order its renderer takes, whether a new picture at each keyframe is enough for it, and the
    /// part of the picture it has in sight.
    struct Display {
        var size: PixelSize
        var visible: Bool
        var order: PixelOrder
        var keyframesSuffice = false
        var region = PictureRegion.whole
    }

    init(session: StreamSession, executor: EventExecutor, display: Display,
         onState: @escaping (SessionState) -> Void, onFrame: @escaping (VideoFrame) -> Void) {
        self.session = session
        self.executor = executor
        self.display = display
        self.onState = onState
        self.onFrame = onFrame
    }

    /// Tells the session the pixel size this view shows, whether it is on screen, the pixel order it
    /// wants, whether a picture at each keyframe is enough (a farm tile beyond the ones shown live:
    /// while every visible view says so, the session decodes keyframes only), and the part of the
    /// picture in sight (`region`, zoomed views: frames for it show only that part, at
    /// `displaySize`). Cheap; call it on every allocation, visibility, renderer or zoom change.
    public func update(displaySize: PixelSize, visible: Bool, order: PixelOrder = .bgra, keyframesSuffice: Bool = false,
                       region: PictureRegion = .whole) {
        session.update(self, display: Display(size: displaySize, visible: visible, order: order,
                                              keyframesSuffice: keyframesSuffice, region: region))
    }

    /// Leaves the session; the last consumer to leave stops it. No handler runs after this returns
    /// (when called on the consumer's own executor).
    public func detach() {
        session.detach(self)
    }
}
