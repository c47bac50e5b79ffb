import CGtk
import GtkKit
@testable import LayerwatchApp
import StreamKit
import TestSupport
import XCTest

/// Snapshots are PNGs of the stream's full size, whatever size the window shows.
final class SnapshotTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testSnapshotIsAFullResolutionPNGNamedForThePrinter() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "1280", "--height", "720"])
        let session = try makeSession("rtsp://127.0.0.1:\(server.port)/streaming/live/1")
        let folder = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let shown = PageWindow(name: "Farm/01", session: session, width: 480, height: 360)
            defer { shown.close() }
            XCTAssertTrue(iterateMainContext(timeout: 15) {
                shown.page.state == .live && (session.stats.outputSize?.width ?? 1280) < 1280
            }, "the window shows a scaled-down picture: \(String(describing: session.stats.outputSize))")
            var saved: Result<URL, SnapshotWriter.Failure>?
            shown.page.takeSnapshot(into: folder) { saved = $0 }
            XCTAssertTrue(iterateMainContext(timeout: 10) { saved != nil })
            let url = try XCTUnwrap(try saved?.get())
            XCTAssertTrue(url.lastPathComponent.hasPrefix("Farm-01 "), url.lastPathComponent)
            XCTAssertEqual(url.pathExtension, "png")
            let texture = try XCTUnwrap(gdk_texture_new_from_filename(url.path, nil))
            defer { g_object_unref(texture.rawGObject) }
            XCTAssertEqual(gdk_texture_get_width(texture), 1280)
            XCTAssertEqual(gdk_texture_get_height(texture), 720)
        }
    }

    func testSnapshotNamesNeverOverwrite() throws {
        let folder = try makeTemporaryDirectory()
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let name = SavedFiles.name(printer: "A1", at: date, extension: "png")
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data([1])))
        let clip = try TestClips.smpteBars(width: 64, height: 48, fps: 5, seconds: 1)
        let session = StreamSession(source: .file(path: clip.path, loop: true))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(1, timeout: 10))
        MainActor.assumeIsolated {
            var saved: Result<URL, SnapshotWriter.Failure>?
            SnapshotWriter.save(frame, printer: "A1", into: folder, at: date) { saved = $0 }
            XCTAssertTrue(iterateMainContext(timeout: 10) { saved != nil })
            XCTAssertEqual(try? saved?.get().lastPathComponent, name.replacingOccurrences(of: ".png", with: " (2).png"))
            XCTAssertEqual(try? Data(contentsOf: folder.appendingPathComponent(name)), Data([1]), "the old file is untouched")

            // A 500-character name (two bytes each) still gives a file the file system takes.
            let long = String(repeating: "é", count: 500)
            saved = nil
            SnapshotWriter.save(frame, printer: long, into: folder, at: date) { saved = $0 }
            XCTAssertTrue(iterateMainContext(timeout: 10) { saved != nil })
            let written = try? saved?.get().lastPathComponent
            XCTAssertTrue(written?.hasPrefix(String(repeating: "é", count: 80)) ?? false, String(describing: saved))
            XCTAssertLessThanOrEqual(written?.utf8.count ?? 999, 255)
        }
    }
}
