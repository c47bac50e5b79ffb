import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// Recording from the window, as a user does it: Ctrl+Shift+R records the selected camera on its
/// one connection, a red badge counts time and size on the tab (and the mini window), the Record
/// button is on; Ctrl+Shift+R again stops it and a toast says where the file went, which decodes
/// cleanly at the camera's codec and size. A disk full before the first picture stops it with a
/// toast saying so, and leaves no file.
final class RecordingWindowTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testCtrlShiftRRecordsTheSelectedCameraIntoTheVideosFolder() throws {
        let windowManager = try WindowManager()
        try withLiveCamera { server, printer, app, window, page, videos in
            XCTAssertNil(page.surface!.recordingBadgeText)
            XCTAssertTrue(window.isEnabled("record"))
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))

            XCTAssertEqual(Keyboard.press("ctrl+shift+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { page.session!.recording != nil }, "Ctrl+Shift+R records")
            XCTAssertTrue(page.surface!.recordingBadgeText?.hasPrefix("● 0:0") ?? false, String(describing: page.surface!.recordingBadgeText))
            XCTAssertTrue(isRecordButtonOn(page), "the Record button shows it")
            app.togglePopOut(page.camera!)
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            XCTAssertTrue(iterateMainContext(timeout: 5) { (page.session!.recording?.current.seconds ?? 0) >= 2.2 })
            XCTAssertTrue(iterateMainContext(timeout: 2) { page.surface!.recordingBadgeText?.hasPrefix("● 0:02") ?? false },
                          String(describing: page.surface!.recordingBadgeText))
            XCTAssertTrue(iterateMainContext(timeout: 2) { mini.surface.recordingBadgeText != nil }, "the mini window shows it too")
            mini.close()

            XCTAssertEqual(Keyboard.press("ctrl+shift+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !toastTitles(in: window.window).isEmpty }, "a toast says where it went")
            let files = try FileManager.default.contentsOfDirectory(atPath: videos.path)
            XCTAssertEqual(files.count, 1)
            let name = try XCTUnwrap(files.first)
            XCTAssertTrue(name.hasPrefix("Voron ") && name.hasSuffix(".mkv"), name)
            XCTAssertEqual(toastTitles(in: window.window), ["Saved “\(name)” in \(SavedFiles.shownName(of: videos))"])
            XCTAssertNil(page.surface!.recordingBadgeText)
            XCTAssertFalse(isRecordButtonOn(page))
            let recorded = try RecordedFile(videos.appendingPathComponent(name))
            XCTAssertEqual(recorded.codec, "h264")
            XCTAssertEqual([recorded.width, recorded.height], [640, 480])
            XCTAssertEqual(recorded.decodeErrors, "")
            XCTAssertGreaterThanOrEqual(recorded.seconds, 2)
            XCTAssertEqual(server.events(named: "client").count, 1, "tab, tile, mini window and recording on one connection")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testADiskFullBeforeTheFirstPictureIsToldAndLeavesNoFile() throws {
        try withLiveCamera { _, _, app, window, page, videos in
            try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
            // Files of 2 kB at most: the header fits, the first second's pictures do not.
            FileSizeLimit(bytes: 2000).during {
                app.setRecording(true)
                XCTAssertTrue(iterateMainContext(timeout: 10) { !toastTitles(in: window.window).isEmpty }, "a toast says it stopped")
            }
            XCTAssertEqual(toastTitles(in: window.window), ["The disk is full: the recording stopped. Nothing was recorded."])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: videos.path), [], "no file without a picture is left")
            XCTAssertNil(page.session!.recording)
            XCTAssertFalse(isRecordButtonOn(page))
        }
    }

    /// Starts the app with one printer, "Voron", on the loopback RTSP camera, recording into a
    /// Videos/Layerwatch of its own, and runs `body` once its tab plays.
    private func withLiveCamera(_ body: @MainActor (TestServer, Printer, LayerwatchApplication, MainWindow, PrinterPage, URL) throws -> Void) throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        let directory = try makeTemporaryDirectory()
        let videos = directory.appendingPathComponent("Videos/Layerwatch")
        let printer = Printer(name: "Voron", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(server.port)/streaming/live/1")], notifies: false)
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.recordingFolder = videos
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live })
            try body(server, printer, app, window, page, videos)
        }
    }

    /// Whether the page's Record toggle is pressed in.
    @MainActor
    private func isRecordButtonOn(_ page: PrinterPage) -> Bool {
        descendants(of: page.controls.widget).contains {
            Bool(gboolean: gtk_widget_has_css_class($0, "feature-record")) && Bool(gboolean: gtk_toggle_button_get_active(gcast($0)))
        }
    }
}
