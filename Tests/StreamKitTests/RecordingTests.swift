import Foundation
import StreamKit
import TestSupport
import XCTest

/// Recording copies the camera's pictures into Matroska from the session that shows them: the file
/// decodes cleanly with FFmpeg at the camera's codec and size, on the camera's one connection, and
/// a reconnect continues the same file; nothing already at a file's name is written over or through.
final class RecordingTests: XCTestCase {
    func testAnRTSPCameraIsRecordedAsItsOwnH264OnItsOneConnectionAndAReconnectContinuesTheFile() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        defer { session.stop() }
        let view = SessionRecorder(session: session, displaySize: PixelSize(width: 320, height: 240))
        XCTAssertNotNil(view.waitForFrames(1, timeout: 15), "states \(view.states)")
        let file = try makeTemporaryDirectory().appendingPathComponent("printer.mkv")
        let recording = session.startRecording(to: file)
        XCTAssertTrue(session.startRecording(to: file.appendingPathExtension("other")) === recording, "one recording a session")
        XCTAssertTrue(waitUntil(timeout: 10) { recording.current.seconds >= 2 }, "\(recording.current)")
        XCTAssertEqual(server.events(named: "client").count, 1, "the view's connection records too")

        session.restart()  // a reconnect: the same file goes on from the next keyframe
        XCTAssertNotNil(server.waitFor("client", where: { $0.int("total") == 2 }))
        let beforeReconnect = recording.current.seconds
        XCTAssertTrue(waitUntil(timeout: 10) { recording.current.seconds >= beforeReconnect + 2 })
        let stopped = expectation(description: "stopped")
        session.stopRecording { _ in stopped.fulfill() }
        wait(for: [stopped], timeout: 5)
        XCTAssertNil(session.recording)

        let status = recording.current
        XCTAssertEqual(status.files, [file], "one file across the reconnect")
        XCTAssertNil(status.failure)
        XCTAssertTrue(status.isFinished)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual(status.bytes, (attributes[.size] as? NSNumber)?.int64Value)
        let recorded = try RecordedFile(file)
        XCTAssertEqual(recorded.codec, "h264")
        XCTAssertEqual([recorded.width, recorded.height], [640, 480])
        XCTAssertEqual(recorded.decodeErrors, "", "decodes cleanly")
        XCTAssertGreaterThanOrEqual(recorded.frames, Int(status.seconds * 15 * 0.7), "\(recorded.frames) pictures in \(status.seconds) s")
        XCTAssertGreaterThanOrEqual(recorded.seconds, 3.5, "both connections' pictures")
        view.detach()
    }

    func testAP1CamerasJPEGsAreRecordedAsMJPEGAndTheRecordingEndsWithTheLastView() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--password", "12345678", "--width", "640", "--height", "360", "--fps", "5"])
        let session = StreamSession(source: try StreamSource.parse("bambu-jpeg://127.0.0.1:\(server.port)?code=12345678"))
        defer { session.stop() }
        let view = SessionRecorder(session: session, visible: false)
        let file = try makeTemporaryDirectory().appendingPathComponent("p1.mkv")
        let recording = session.startRecording(to: file)
        XCTAssertTrue(waitUntil(timeout: 10) { recording.current.seconds >= 2 }, "\(recording.current) \(view.states)")
        view.detach()  // the last view leaving stops the session, and the recording with it
        recording.waitUntilFinished()
        XCTAssertTrue(waitUntil(timeout: 5) { recording.current.isFinished })
        let recorded = try RecordedFile(file)
        XCTAssertEqual(recorded.codec, "mjpeg")
        XCTAssertEqual([recorded.width, recorded.height], [640, 360])
        XCTAssertEqual(recorded.decodeErrors, "")
        XCTAssertGreaterThanOrEqual(recorded.frames, 8, "5 pictures a second for 2 s")
        XCTAssertEqual(server.events(named: "client").count, 1)
    }

    func testACameraBackWithAnotherSizeStartsANewPart() throws {
        let first = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        let port = first.port
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 0.5)
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(port)/streaming/live/1"), options: options)
        defer { session.stop() }
        let view = SessionRecorder(session: session, displaySize: PixelSize(width: 320, height: 240))
        XCTAssertNotNil(view.waitForFrames(1, timeout: 15), "states \(view.states)")
        let file = try makeTemporaryDirectory().appendingPathComponent("camera.mkv")
        let recording = session.startRecording(to: file)
        XCTAssertTrue(waitUntil(timeout: 10) { recording.current.seconds >= 1.5 })
        first.stop()
        // The camera comes back on the same port, at another size.
        let second = try TestServer(script: "rtsp_server.py", arguments: ["--port", "\(port)", "--width", "320", "--height", "240", "--fps", "15"])
        XCTAssertTrue(waitUntil(timeout: 20) { recording.current.files.count == 2 }, "\(recording.current) \(view.states.suffix(3))")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? RecordedFile(StreamRecording.url(of: file, part: 2)).frames) ?? 0 >= 10 })
        recording.stop()
        recording.waitUntilFinished()
        XCTAssertEqual(recording.current.files, [file, StreamRecording.url(of: file, part: 2)])
        let parts = try recording.current.files.map(RecordedFile.init)
        XCTAssertEqual(parts.map { [$0.width, $0.height] }, [[640, 480], [320, 240]])
        XCTAssertEqual(parts.map(\.decodeErrors), ["", ""], "both parts decode cleanly")
        XCTAssertEqual(second.events(named: "client").count, 1)
        view.detach()
    }

    func testARecordingNeverOpensAFileOrLinkAlreadyThereAndTakesTheNextFreeName() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "320", "--height", "240", "--fps", "15"])
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        defer { session.stop() }
        let view = SessionRecorder(session: session, visible: false)
        let folder = try makeTemporaryDirectory()
        let file = folder.appendingPathComponent("printer.mkv"), link = folder.appendingPathComponent("printer (2).mkv")
        let target = folder.appendingPathComponent("elsewhere.mkv")
        let someoneElses = Data("someone else's file".utf8)
        try someoneElses.write(to: file)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let recording = session.startRecording(to: file)
        XCTAssertTrue(waitUntil(timeout: 10) { recording.current.seconds >= 1.5 }, "\(recording.current)")
        recording.stop()
        recording.waitUntilFinished()
        let made = folder.appendingPathComponent("printer (3).mkv")
        XCTAssertEqual(recording.current.files, [made], "the file and the dangling link are passed over")
        XCTAssertEqual(try Data(contentsOf: file), someoneElses, "the file already there is unchanged")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "the link is not followed")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), target.path)
        let recorded = try RecordedFile(made)
        XCTAssertEqual([recorded.width, recorded.height], [320, 240])
        XCTAssertEqual(recorded.decodeErrors, "")
        XCTAssertGreaterThanOrEqual(recorded.frames, 10)
        view.detach()
    }

    func testPartsAfterTheFirstAreNamedFromIt() {
        let first = URL(fileURLWithPath: "/videos/X1C 2026-11-23 10.00.00.mkv")
        XCTAssertEqual(StreamRecording.url(of: first, part: 1), first)
        XCTAssertEqual(StreamRecording.url(of: first, part: 2).path, "/videos/X1C 2026-11-23 10.00.00 (part 2).mkv")
    }
}
