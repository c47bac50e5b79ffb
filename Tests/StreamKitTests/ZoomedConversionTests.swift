import Foundation
import StreamKit
import TestSupport
import XCTest

/// A zoomed view is sent only the part of the picture in sight, cut from the decoded frame before
/// scaling: converted at the view's size from the source's own pixels (never above them), while a
/// view of the whole picture on the same session keeps getting the whole picture.
final class ZoomedConversionTests: XCTestCase {
    func testAZoomedViewGetsItsRegionAtItsOwnSize() throws {
        let clip = try TestClips.smpteBars(width: 1280, height: 720, fps: 30, seconds: 10)
        let session = StreamSession(source: try StreamSource.parse(clip.path, loopFiles: true))
        defer { session.stop() }
        let view = PixelSize(width: 640, height: 360)
        let zoomed = SessionRecorder(session: session, displaySize: view)
        XCTAssertNotNil(zoomed.waitForFrames(1, timeout: 10), "states \(zoomed.states)")

        // 2×, the top-right quarter: 640×360 source pixels shown at 640×360, one to one.
        zoomed.consumer.update(displaySize: view, visible: true, region: PictureRegion(x: 0.5, y: 0, width: 0.5, height: 0.5))
        let twice = try XCTUnwrap(nextFrame(of: zoomed, matching: { $0.region.x == 640 }), "a frame of the zoomed region")
        XCTAssertEqual(twice.region, PixelRect(x: 640, y: 0, width: 640, height: 360))
        XCTAssertEqual(PixelSize(width: twice.width, height: twice.height), view, "converted at the view's size")
        XCTAssertEqual(PixelSize(width: twice.sourceWidth, height: twice.sourceHeight), PixelSize(width: 1280, height: 720))
        // Source x = 640 + x: bars are 1280/7 ≈ 182.9 px wide, so green (3), red (5), blue (6).
        SMPTEBars.assertBar(3, at: 40, 100, in: twice, intensity: .ffmpeg)
        SMPTEBars.assertBar(5, at: 300, 100, in: twice, intensity: .ffmpeg)
        SMPTEBars.assertBar(6, at: 620, 100, in: twice, intensity: .ffmpeg)
        XCTAssertFalse(twice.isFullResolution)

        // 4× a 640×360 view: 320×180 source pixels, enlarged to the view's size before the colour
        // conversion (the renderer then draws them one to one).
        zoomed.consumer.update(displaySize: view, visible: true, region: PictureRegion(x: 0.75, y: 0.25, width: 0.25, height: 0.25))
        let fourTimes = try XCTUnwrap(nextFrame(of: zoomed, matching: { $0.region.x == 960 }))
        XCTAssertEqual(fourTimes.region, PixelRect(x: 960, y: 180, width: 320, height: 180))
        XCTAssertEqual(PixelSize(width: fourTimes.width, height: fourTimes.height), view)
        // Source x = 960 + x / 2: red up to 1097 (x 274), blue beyond.
        SMPTEBars.assertBar(5, at: 80, 120, in: fourTimes, intensity: .ffmpeg)
        SMPTEBars.assertBar(6, at: 600, 120, in: fourTimes, intensity: .ffmpeg)

        // A second view of the whole picture on the same session gets the whole picture meanwhile.
        let whole = SessionRecorder(session: session, displaySize: PixelSize(width: 480, height: 270))
        let overview = try XCTUnwrap(whole.waitForFrames(3, timeout: 5))
        XCTAssertEqual(overview.region, PixelRect(x: 0, y: 0, width: 1280, height: 720))
        XCTAssertEqual(PixelSize(width: overview.width, height: overview.height), PixelSize(width: 480, height: 270))
        SMPTEBars.assertBars(in: overview, intensity: .ffmpeg)
        let still = try XCTUnwrap(nextFrame(of: zoomed, matching: { _ in true }))
        XCTAssertEqual(still.region, PixelRect(x: 960, y: 180, width: 320, height: 180), "the zoomed view still gets its region")
        XCTAssertEqual(session.stats.outputSize, view, "the larger of the two conversions")

        // Back to fit: the whole picture at the view's size again.
        zoomed.consumer.update(displaySize: view, visible: true, region: .whole)
        let fitted = try XCTUnwrap(nextFrame(of: zoomed, matching: { $0.region.width == 1280 }))
        XCTAssertEqual(PixelSize(width: fitted.width, height: fitted.height), view)
        SMPTEBars.assertBars(in: fitted, intensity: .ffmpeg)
        whole.detach()
        zoomed.detach()
    }

    func testRegionsAreCutOnEvenPixelsInsideThePicture() {
        XCTAssertEqual(PictureRegion(x: 0.5, y: 0.5, width: 0.5, height: 0.5).pixels(sourceWidth: 1280, sourceHeight: 720),
                       PixelRect(x: 640, y: 360, width: 640, height: 360))
        // 0.3 × 1001 = 300.3 → 300; the end 0.7 × 1001 = 700.7 → 701 → 702: grown outwards to even.
        XCTAssertEqual(PictureRegion(x: 0.3, y: 0, width: 0.4, height: 1).pixels(sourceWidth: 1001, sourceHeight: 99),
                       PixelRect(x: 300, y: 0, width: 402, height: 99))
        XCTAssertEqual(PictureRegion(x: 0.9, y: 0.9, width: 0.5, height: 0.5), PictureRegion(x: 0.5, y: 0.5, width: 0.5, height: 0.5),
                       "kept inside the picture")
        XCTAssertEqual(PictureRegion(x: 0, y: 0, width: 0, height: .nan).width, 1.0 / 64, "at least 1/64 of a side")
        XCTAssertEqual(PictureRegion(x: 0, y: 0, width: 0, height: .nan).height, 1.0 / 64)
    }

    /// The next frame `recorder` receives that `matches`, within 5 s.
    private func nextFrame(of recorder: SessionRecorder, matching matches: @escaping (VideoFrame) -> Bool) -> VideoFrame? {
        let deadline = Date().addingTimeInterval(5)
        var seen = recorder.frameCount
        while Date() < deadline {
            guard let frame = recorder.waitForFrames(seen + 1, timeout: 1) else { continue }
            seen = recorder.frameCount
            if matches(frame) { return frame }
        }
        return nil
    }
}
