import Foundation
import TestSupport
import XCTest

/// `layerwatch record`, as a user runs it against the loopback RTSP camera: the file decodes cleanly
/// at the camera's codec and size; a recorder killed mid-way leaves a file that plays; a full disk
/// (a file-size limit) stops it with a message and exit status 11, what was written playing, and
/// a file that got no picture removed; nothing it finds is written over or through (an existing
/// part's name, a symbolic link given as the file).
final class RecordCommandTests: XCTestCase {
    private func camera() throws -> (TestServer, String) {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        return (server, "rtsp://127.0.0.1:\(server.port)/streaming/live/1")
    }

    func testRecordsTheCamerasH264IntoAFileThatDecodesCleanly() throws {
        let (server, url) = try camera()
        let file = try makeTemporaryDirectory().appendingPathComponent("camera.mkv")
        let run = try CommandRun.product("layerwatch", ["record", url, "--seconds", "3", "-o", file.path], timeout: 40)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("Recorded ") && run.stdout.contains(file.path), run.stdout)
        let recorded = try RecordedFile(file)
        XCTAssertEqual(recorded.codec, "h264")
        XCTAssertEqual([recorded.width, recorded.height], [640, 480])
        XCTAssertEqual(recorded.decodeErrors, "")
        XCTAssertEqual(recorded.seconds, 3, accuracy: 0.5)
        // It stops 3 s after the first picture and says the file's length, the time of the last
        // picture written: on a loaded machine a picture or two short of 3 s ("Recorded 2.9 s").
        let said = try XCTUnwrap(Double(run.stdout.dropFirst("Recorded ".count).prefix { $0 != " " }), run.stdout)
        XCTAssertEqual(said, recorded.seconds, accuracy: 0.15, "the length it says is the file's: \(run.stdout)")
        XCTAssertEqual(said, 3, accuracy: 0.5, run.stdout)
        XCTAssertGreaterThanOrEqual(recorded.frames, 35, "15 pictures a second for 3 s")
        XCTAssertEqual(server.events(named: "client").count, 1)

        let again = try CommandRun.product("layerwatch", ["record", url, "--seconds", "1", "-o", file.path])
        XCTAssertNotEqual(again.status, 0, "an existing file is never overwritten")
        XCTAssertTrue(again.stderr.contains("exists already"), again.stderr)
    }

    func testAKilledRecorderLeavesAFileThatPlays() throws {
        let (server, url) = try camera()
        defer { withExtendedLifetime(server) {} }
        let file = try makeTemporaryDirectory().appendingPathComponent("killed.mkv")
        let recorder = Process()
        recorder.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        recorder.arguments = ["record", url, "--seconds", "60", "-o", file.path]
        recorder.standardOutput = FileHandle.nullDevice
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        XCTAssertTrue(waitUntil(timeout: 15) { ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? NSNumber)?.intValue ?? 0 > 200_000 })
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        let recorded = try RecordedFile(file)
        XCTAssertEqual(recorded.codec, "h264")
        XCTAssertEqual([recorded.width, recorded.height], [640, 480])
        XCTAssertGreaterThanOrEqual(recorded.frames, 10, "the pictures written before the kill play: \(recorded.decodeErrors)")
        XCTAssertFalse(recorded.decodeErrors.contains("Invalid data"), recorded.decodeErrors)
    }

    func testAFullDiskStopsTheRecordingWithAMessageAndKeepsWhatWasWritten() throws {
        let (server, url) = try camera()
        defer { withExtendedLifetime(server) {} }
        let file = try makeTemporaryDirectory().appendingPathComponent("full.mkv")
        // prlimit's file-size limit makes writes past 300 kB fail as on a full disk (EFBIG).
        let run = try CommandRun.product("layerwatch", ["record", url, "--seconds", "30", "-o", file.path],
                                         timeout: 40, launcher: ["/usr/bin/prlimit", "--fsize=300000"])
        XCTAssertEqual(run.status, 11, run.stderr)
        XCTAssertTrue(run.stderr.contains("The disk is full: the recording stopped."), run.stderr)
        XCTAssertTrue(run.stderr.contains(file.path), run.stderr)
        let recorded = try RecordedFile(file)
        XCTAssertEqual(recorded.codec, "h264")
        XCTAssertGreaterThanOrEqual(recorded.frames, 5, "what was written before the disk filled plays")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path), ["full.mkv"])
    }

    func testADiskFullBeforeThePictureLeavesNoFile() throws {
        let (server, url) = try camera()
        defer { withExtendedLifetime(server) {} }
        let folder = try makeTemporaryDirectory()
        let file = folder.appendingPathComponent("full.mkv")
        // 2000 bytes take the header, not the first second's pictures.
        let run = try CommandRun.product("layerwatch", ["record", url, "--seconds", "30", "-o", file.path],
                                         timeout: 40, launcher: ["/usr/bin/prlimit", "--fsize=2000"])
        XCTAssertEqual(run.status, 11, run.stderr)
        XCTAssertEqual(run.stderr, "The disk is full: the recording stopped. Nothing was recorded.\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no empty or headless file is left")
    }

    func testASymbolicLinkAsTheFileIsRefusedAndNotFollowed() throws {
        let folder = try makeTemporaryDirectory()
        let target = folder.appendingPathComponent("target.mkv"), existing = folder.appendingPathComponent("existing.mkv")
        let dangling = folder.appendingPathComponent("dangling.mkv"), link = folder.appendingPathComponent("link.mkv")
        try Data("not a recording".utf8).write(to: existing)
        try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: existing)
        let existsAlready = try CommandRun.product("layerwatch", ["record", "rtsp://127.0.0.1:9/x", "--seconds", "1", "-o", existing.path])
        for path in [dangling, link] {
            let run = try CommandRun.product("layerwatch", ["record", "rtsp://127.0.0.1:9/x", "--seconds", "1", "-o", path.path])
            XCTAssertEqual(run.status, existsAlready.status, "refused as an existing file is")
            XCTAssertTrue(run.stderr.contains("“\(path.path)” is a symbolic link: choose another file."), run.stderr)
        }
        XCTAssertNotEqual(existsAlready.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "the dangling link's target is not made")
        XCTAssertEqual(try Data(contentsOf: existing), Data("not a recording".utf8), "the linked file is unchanged")
    }

    func testAnExistingPartIsNeverOverwrittenTheNewPartTakesAFreeName() throws {
        let first = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        let port = first.port
        let folder = try makeTemporaryDirectory()
        let file = folder.appendingPathComponent("camera.mkv"), taken = folder.appendingPathComponent("camera (part 2).mkv")
        let someoneElses = Data("another recording's part".utf8)
        try someoneElses.write(to: taken)
        let output = Pipe()
        let recorder = Process()
        recorder.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        recorder.arguments = ["record", "rtsp://127.0.0.1:\(port)/streaming/live/1", "--seconds", "14", "-o", file.path]
        recorder.standardOutput = output
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        XCTAssertTrue(waitUntil(timeout: 15) { ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? NSNumber)?.intValue ?? 0 > 20_000 })
        first.stop()
        // The camera comes back on the same port at another size: a new part begins.
        let second = try TestServer(script: "rtsp_server.py", arguments: ["--port", "\(port)", "--width", "320", "--height", "240", "--fps", "15"])
        defer { withExtendedLifetime(second) {} }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        recorder.waitUntilExit()
        XCTAssertEqual(recorder.terminationStatus, 0)
        let part = folder.appendingPathComponent("camera (part 2) (2).mkv")
        XCTAssertTrue(printed.contains("into \(file.path), \(part.path)"), printed)
        XCTAssertEqual(try Data(contentsOf: taken), someoneElses, "the part already there is unchanged")
        let recorded = try RecordedFile(part)
        XCTAssertEqual([recorded.width, recorded.height], [320, 240])
        XCTAssertEqual(recorded.decodeErrors, "")
        XCTAssertGreaterThanOrEqual(recorded.frames, 10)
    }
}
