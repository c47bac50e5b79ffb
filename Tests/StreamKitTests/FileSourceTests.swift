@testable import StreamKit
import TestSupport
import XCTest

/// Local files: decoded at their own pace, looped for the demo camera, ended cleanly otherwise.
final class FileSourceTests: XCTestCase {
    func testDecodesTheClipAtItsSizeWithTheRightColours() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240)
        let session = StreamSession(source: .file(path: clip.path, loop: false))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 10))
        XCTAssertEqual(frame.width, 320)
        XCTAssertEqual(frame.height, 240)
        XCTAssertEqual(frame.sourceWidth, 320)
        SMPTEBars.assertBars(in: frame, intensity: .ffmpeg)
        XCTAssertEqual(session.stats.codec, "h264")
        XCTAssertNotNil(session.stats.timeToFirstFrame)
    }

    func testFileWithoutLoopEndsAndLoopingFileKeepsGoing() throws {
        let clip = try TestClips.smpteBars(fps: 10, seconds: 1)
        let once = StreamSession(source: .file(path: clip.path, loop: false))
        let onceRecorder = SessionRecorder(session: once)
        XCTAssertEqual(onceRecorder.waitForState(timeout: 10) { $0.isFailed }, .failed(.endOfStream))
        XCTAssertEqual(once.stats.decodedFrames, 10)

        let looping = StreamSession(source: .file(path: clip.path, loop: true))
        let loopRecorder = SessionRecorder(session: looping)
        defer { looping.stop() }
        XCTAssertNotNil(loopRecorder.waitForFrames(15, timeout: 10), "a looping 10-frame clip must go past frame 10")
        XCTAssertFalse(loopRecorder.states.contains { $0.isFailed })
    }

    func testMissingFileIsNotFound() {
        let session = StreamSession(source: .file(path: "/nonexistent/clip.mp4", loop: false))
        let recorder = SessionRecorder(session: session)
        XCTAssertEqual(recorder.waitForState(timeout: 5) { $0.isFailed }, .failed(.notFound))
    }

    func testConvertsToTheDisplaySizeAndNotAtAllWhenHidden() throws {
        let clip = try TestClips.smpteBars(width: 640, height: 480, fps: 25, seconds: 2)
        let session = StreamSession(source: .file(path: clip.path, loop: true))
        let small = SessionRecorder(session: session, displaySize: PixelSize(width: 160, height: 200))
        defer { session.stop() }
        let frame = try XCTUnwrap(small.waitForFrames(2, timeout: 10))
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 160, height: 120))
        XCTAssertEqual(frame.sourceWidth, 640)
        SMPTEBars.assertBars(in: frame, intensity: .ffmpeg)

        small.consumer.update(displaySize: PixelSize(width: 160, height: 120), visible: false)
        let convertedWhenHidden = session.stats.convertedFrames
        let decodedWhenHidden = session.stats.decodedFrames
        XCTAssertTrue(waitUntil(timeout: 5) { session.stats.decodedFrames >= decodedWhenHidden + 10 })
        // At most the frame that was being converted when visibility changed.
        XCTAssertLessThanOrEqual(session.stats.convertedFrames, convertedWhenHidden + 1)

        small.consumer.update(displaySize: PixelSize(width: 320, height: 240), visible: true)
        let resumed = small.frameCount
        XCTAssertNotNil(small.waitForFrames(resumed + 2, timeout: 5))
        let larger = try XCTUnwrap(small.lastFrame)
        XCTAssertEqual(PixelSize(width: larger.width, height: larger.height), PixelSize(width: 320, height: 240))
        SMPTEBars.assertBars(in: larger, intensity: .ffmpeg)
    }
}
