import Foundation
import StreamKit
import TestSupport
import XCTest

/// A timelapse's pictures wait on disk as JPEGs of the full-resolution frame, survive a restart of
/// the app for the same print (and only the same print), and become an H.264 video with one
/// picture each.
final class TimelapseFramesTests: XCTestCase {
    func testPicturesWaitOnDiskAcrossARestartAndBecomeAnH264Video() throws {
        let clip = try TestClips.smpteBars(width: 640, height: 360, fps: 10, seconds: 2)
        let session = StreamSession(source: .file(path: clip.path, loop: true))
        defer { session.stop() }
        let recorder = SessionRecorder(session: session)
        let frame = try XCTUnwrap(recorder.waitForFrames(1, timeout: 10))
        XCTAssertEqual([frame.width, frame.height], [640, 360])
        let jpeg = try TimelapseEncoder.jpeg(frame.pixels, width: frame.width, height: frame.height, stride: frame.stride, order: frame.order)
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8], "a JPEG")
        XCTAssertLessThan(jpeg.count, 200_000, "small enough to wait on disk: \(jpeg.count) bytes")

        let folder = try makeTemporaryDirectory().appendingPathComponent("printer")
        let store = TimelapseFrames(folder: folder)
        try store.begin(job: "benchy.gcode")
        try store.add(jpeg: jpeg, layer: 1)
        try store.add(jpeg: jpeg, layer: 2)

        // The app starts again mid-print: the same print's pictures are still there.
        let again = TimelapseFrames(folder: folder)
        XCTAssertEqual(again.job, "benchy.gcode")
        XCTAssertEqual(again.count, 2)
        XCTAssertEqual(again.layer, 2)
        try again.begin(job: "benchy.gcode")
        try again.add(jpeg: jpeg, layer: 3)
        XCTAssertEqual(again.pictures.map(\.lastPathComponent), ["000001.jpg", "000002.jpg", "000003.jpg"])
        let picture = try RecordedFile(again.pictures[0])
        XCTAssertEqual(picture.codec, "mjpeg")
        XCTAssertEqual([picture.width, picture.height], [640, 360])

        let video = folder.deletingLastPathComponent().appendingPathComponent("timelapse.mp4")
        try TimelapseEncoder.video(of: again.pictures, to: video, fps: 30)
        let made = try RecordedFile(video)
        XCTAssertEqual(made.codec, "h264")
        XCTAssertEqual([made.width, made.height], [640, 360])
        XCTAssertEqual(made.frames, 3, "one picture each")
        XCTAssertEqual(made.decodeErrors, "")

        // Another print starts: the old pictures go.
        try again.begin(job: "calibration.gcode")
        XCTAssertEqual(again.count, 0)
        XCTAssertEqual(again.pictures, [])
        XCTAssertEqual(TimelapseFrames(folder: folder).job, "calibration.gcode")
        recorder.detach()
    }
}
