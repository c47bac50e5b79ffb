import Foundation
import StreamKit
import TestSupport
import XCTest

/// A timelapse's pictures wait on disk as JPEGs of the full-resolution frame, survive a restart of
/// the app for the same print (and only the same print), and become an H.264 video with one
/// picture each; a video that cannot be written leaves no file, and its pictures can be set aside
/// whole for another try.
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

    func testAVideoThatCannotBeWrittenLeavesNoFileAndThePicturesAreSetAsideWhole() throws {
        let pixels = (0..<640 * 360 * 4).map { UInt8(truncatingIfNeeded: $0 / 97) }
        let jpeg = try pixels.withUnsafeBytes { try TimelapseEncoder.jpeg($0.baseAddress!, width: 640, height: 360, stride: 640 * 4, order: .bgra) }
        let state = try makeTemporaryDirectory()
        let store = TimelapseFrames(folder: state.appendingPathComponent("printer"))
        try store.begin(job: "benchy.gcode")
        for layer in 1...3 { try store.add(jpeg: jpeg, layer: layer) }
        let pictures = try store.pictures.map { try Data(contentsOf: $0) }

        // A full disk: this process may write files of 512 bytes at most (a write past it fails as
        // EFBIG, as the disk being full does).
        let videos = try makeTemporaryDirectory()
        XCTAssertThrowsError(try FileSizeLimit(bytes: 512).during {
            try TimelapseEncoder.video(of: store.pictures, to: videos.appendingPathComponent("timelapse.mp4"))
        }) { XCTAssertEqual("\($0)", "the disk is full") }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: videos.path), [], "no empty or partial video")

        // A folder that cannot be made (a file stands where it would be).
        let blocked = videos.appendingPathComponent("file")
        try Data().write(to: blocked)
        XCTAssertThrowsError(try TimelapseEncoder.video(of: store.pictures, to: blocked.appendingPathComponent("timelapse.mp4"))) {
            XCTAssertTrue("\($0)".hasSuffix(": Not a directory"), "\($0)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: videos.path), ["file"])
        XCTAssertEqual(try store.pictures.map { try Data(contentsOf: $0) }, pictures, "the pictures are untouched")

        // Set aside, they wait whole while the next print starts afresh.
        let aside = try store.setAside(to: state.appendingPathComponent("unsaved/printer/1"), failed: true)
        XCTAssertEqual([aside.job, store.job], ["benchy.gcode", nil])
        XCTAssertTrue(aside.failed)
        XCTAssertEqual(try aside.pictures.map { try Data(contentsOf: $0) }, pictures)
        try store.begin(job: "calibration.gcode")
        try store.add(jpeg: jpeg, layer: 1)
        XCTAssertEqual(TimelapseFrames(folder: aside.folder).count, 3, "the next print does not touch them")
        let video = try TimelapseEncoder.video(of: aside.pictures, to: videos.appendingPathComponent("timelapse.mp4"))
        XCTAssertEqual(try RecordedFile(video).frames, 3)
        let single = try TimelapseEncoder.video(of: store.pictures, to: videos.appendingPathComponent("single.mp4"))
        XCTAssertEqual(try RecordedFile(single).frames, 1, "a print of one picture has a video of it")
        aside.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: aside.folder.path))
        XCTAssertEqual(store.count, 1)
    }
}
