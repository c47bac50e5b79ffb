import Foundation
import StreamKit
import TestSupport
import XCTest

/// While every visible view is at most a third of the stream's width (a mini window), the decoder
/// skips deblocking; a larger view turns it back on, and so does a full-resolution snapshot, which
/// is taken from a frame decoded with the filter (from a keyframe on) and then lets it go again.
final class SmallViewDeblockingTests: XCTestCase {
    func testSmallViewsSkipDeblockingUntilALargerViewOrASnapshotNeedsIt() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--width", "960", "--height", "720", "--fps", "15", "--preset", "superfast"])
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        defer { session.stop() }
        let recorder = SessionRecorder(session: session, displaySize: PixelSize(width: 320, height: 240))
        XCTAssertNotNil(recorder.waitForFrames(3, timeout: 15), "states \(recorder.states)")
        XCTAssertTrue(waitUntil { session.stats.skipsLoopFilter }, "a 320 px view of a 960 px stream: no deblocking")
        XCTAssertEqual(session.stats.outputSize, PixelSize(width: 320, height: 240))

        let captured = expectation(description: "snapshot")
        var snapshot: VideoFrame?
        var deblockingWhileCapturing: Bool?
        session.captureFullResolution(executor: DispatchQueue(label: "deblocking.capture")) { frame in
            snapshot = frame
            deblockingWhileCapturing = !session.stats.skipsLoopFilter
            captured.fulfill()
        }
        wait(for: [captured], timeout: 5)
        let picture = try XCTUnwrap(snapshot, "a snapshot while only a small view shows")
        XCTAssertEqual(PixelSize(width: picture.width, height: picture.height), PixelSize(width: 960, height: 720))
        SMPTEBars.assertBars(in: picture, intensity: .gstreamer)
        XCTAssertEqual(deblockingWhileCapturing, true, "the snapshot's frame was decoded with deblocking")
        XCTAssertTrue(waitUntil { session.stats.skipsLoopFilter }, "small view only again after the snapshot")

        recorder.consumer.update(displaySize: PixelSize(width: 640, height: 480), visible: true)
        XCTAssertTrue(waitUntil { !session.stats.skipsLoopFilter }, "a view of two thirds the width deblocks")
        let larger = try XCTUnwrap(recorder.waitForFrames(recorder.frameCount + 5, timeout: 5), "frames keep coming")
        XCTAssertEqual(PixelSize(width: larger.width, height: larger.height), PixelSize(width: 640, height: 480))
        SMPTEBars.assertBars(in: larger, intensity: .gstreamer)
    }
}
