import Foundation
import GtkKit
import StreamKit

/// A camera picture for a notification that is at most `maximumAge` old when it is sent: a view's
/// newest frame when one is that fresh, else one captured from the printer's camera session —
/// connected for the capture when nothing holds it (with the window closed to the background no
/// camera runs for notifications' sake) and let go once it is taken. A camera that fails, or does
/// not answer within `timeout`, gives nil, and the notification shows the app's icon rather than
/// wait longer.
@MainActor
final class FreshPicture {
    /// The oldest picture a notification may show, in seconds.
    static let maximumAge: TimeInterval = 3
    /// How long a capture may take, connecting included (a Bambu camera's TLS and first keyframe
    /// take a few seconds).
    static let timeout: UInt32 = 10

    private var consumer: StreamConsumer?
    private var timer: RepeatingTimer?
    private var completion: (@MainActor (VideoFrame?) -> Void)?
    /// Keeps the capture alive until it has answered.
    private var running: FreshPicture?

    /// Hands `completion` (on the main loop) `shown` if it is fresh enough, else a frame captured
    /// from `session`, or nil.
    static func fetch(shown: VideoFrame?, session: StreamSession?, completion: @escaping @MainActor (VideoFrame?) -> Void) {
        if let shown, shown.age <= maximumAge { return completion(shown) }
        guard let session else { return completion(nil) }
        let capture = FreshPicture()
        capture.start(on: session, completion: completion)
    }

    private func start(on session: StreamSession, completion: @escaping @MainActor (VideoFrame?) -> Void) {
        self.completion = completion
        running = self
        timer = RepeatingTimer(seconds: Self.timeout) { [weak self] in self?.finish(nil) }
        // Attached, the session connects if it was idle (a live one is shared); live, it is asked
        // for its next frame, and the first answer is the picture. A camera that fails (or is
        // failing already) gives none: the notification does not wait for its retries.
        consumer = session.attach(executor: MainLoopExecutor.main, visible: false, onState: { [weak self] state in
            switch state {
            case .live:
                session.captureFullResolution(executor: MainLoopExecutor.main) { frame in
                    MainActor.assumeIsolated {
                        if let frame { self?.finish(frame) }
                    }
                }
            case .reconnecting, .failed: self?.finish(nil)
            case .idle, .connecting, .stopped: break
            }
        }, onFrame: { _ in })
    }

    private func finish(_ frame: VideoFrame?) {
        guard let completion else { return }
        self.completion = nil
        timer = nil
        consumer?.detach()
        consumer = nil
        running = nil
        completion(frame)
    }
}
