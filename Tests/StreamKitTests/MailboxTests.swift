import StreamKit
import TestSupport
import XCTest

/// The latest-frame-wins mailbox: a slow view gets the newest frame, never a backlog.
final class MailboxTests: XCTestCase {
    func testABlockedViewGetsOnlyTheNewestFrameAndDropsAreCounted() throws {
        let clip = try TestClips.smpteBars(width: 160, height: 120, fps: 30, seconds: 2)
        let session = StreamSession(source: .file(path: clip.path, loop: true))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(2, timeout: 10))

        let release = DispatchSemaphore(value: 0)
        recorder.queue.async { release.wait() }  // the view is busy for a while
        let decodedBefore = session.stats.decodedFrames
        XCTAssertTrue(waitUntil(timeout: 5) { session.stats.decodedFrames >= decodedBefore + 15 })
        let delivered = recorder.frameCount
        release.signal()
        XCTAssertNotNil(recorder.waitForFrames(delivered + 1, timeout: 2))
        recorder.queue.sync {}
        XCTAssertLessThanOrEqual(recorder.frameCount, delivered + 2, "one wake-up, not one per frame decoded meanwhile")
        XCTAssertGreaterThanOrEqual(session.stats.droppedFrames, 10, "frames replaced unseen are counted")
        let newest = try XCTUnwrap(recorder.lastFrame)
        XCTAssertGreaterThan(newest.sequence, UInt64(delivered + 10), "the frame delivered is the newest, not the oldest")
    }
}
