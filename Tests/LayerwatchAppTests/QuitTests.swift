import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// Ctrl+Q, pressed for real, ends everything: the main window and its mini window go,
/// a running recording's file is closed whole and plays, the status connections stop.
final class QuitTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testCtrlQClosesEveryWindowAndTheRecordingWhole() throws {
        let windowManager = try WindowManager()
        let camera = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock {
            camera.stop()
            moonraker.stop()
        }
        let directory = try makeTemporaryDirectory()
        let videos = directory.appendingPathComponent("Videos/Layerwatch")
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                              cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(camera.port)/streaming/live/1")], notifies: false)
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            window.recordingFolder = videos
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live && app.statusHub.latest(printer.id)?.status != nil })
            app.togglePopOut(page.camera!)
            window.tabs.selected?.setRecording(true)
            XCTAssertTrue(iterateMainContext(timeout: 5) { (page.session!.recording?.current.seconds ?? 0) >= 2 }, "it records")
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.visibleWindows().count == 2 }, "main and mini windows")
            _ = iterateMainContext(timeout: 1) { false }

            // In the mini window: Ctrl+Q is the application's.
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(mini.window))))
            XCTAssertEqual(Keyboard.press("ctrl+q", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { Self.visibleWindows().isEmpty }, "every window is gone")
            XCTAssertNil(app.window)
            XCTAssertTrue(app.miniWindows.all.isEmpty)
            XCTAssertNil(app.statusHub.endpoint(of: printer.id), "the status connection stopped")
            let asked = moonraker.events(named: "request").count
            XCTAssertFalse(iterateMainContext(timeout: 3) { moonraker.events(named: "request").count > asked }, "nothing polls any more")
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.miniWindows.map(\.printerID), [printer.id],
                           "the mini window comes back next time, as after closing the window")

            let files = try FileManager.default.contentsOfDirectory(atPath: videos.path)
            XCTAssertEqual(files.count, 1)
            let recorded = try RecordedFile(videos.appendingPathComponent(try XCTUnwrap(files.first)))
            XCTAssertEqual(recorded.codec, "h264")
            XCTAssertEqual(recorded.decodeErrors, "", "the file was closed whole")
            XCTAssertGreaterThanOrEqual(recorded.seconds, 2)
            Self.releaseTheShortcutsKeys()
        }
        withExtendedLifetime(windowManager) {}
    }

    func testCtrlQInTheAboutWindowQuits() throws {
        let windowManager = try WindowManager()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: try makeTemporaryDirectory())
            app.showAbout()
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.visibleWindows().count == 2 }, "main and About windows")
            _ = iterateMainContext(timeout: 1) { false }
            let about = try XCTUnwrap(Self.visibleWindows().first { $0 != window.window })
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(about))))
            XCTAssertEqual(Keyboard.press("ctrl+q", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { Self.visibleWindows().isEmpty }, "About is one of the app's windows: Ctrl+Q works there")
            XCTAssertNil(app.window)
            Self.releaseTheShortcutsKeys()
        }
        withExtendedLifetime(windowManager) {}
    }

    /// Ctrl+Q's release reached no window (the app had closed them all), so this test process's
    /// GTK still counts Ctrl as held; a keystroke into a window of its own tells it otherwise, or
    /// the next test's pointer would carry the modifier.
    @MainActor
    private static func releaseTheShortcutsKeys() {
        let window = gtk_window_new()!
        gtk_window_present(gcast(window))
        _ = iterateMainContext(timeout: 1) { false }
        let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window))))
        _ = Keyboard.press("ctrl", window: xid)
        _ = iterateMainContext(timeout: 1) { false }
        gtk_window_destroy(gcast(window))
    }

    @MainActor
    private static func visibleWindows() -> [UnsafeMutablePointer<GtkWidget>] {
        let list = gtk_window_get_toplevels()!
        return (0..<g_list_model_get_n_items(list)).compactMap { index in
            let window: UnsafeMutablePointer<GtkWidget> = gcast(g_list_model_get_item(list, index)!)
            g_object_unref(window.rawGObject)
            return Bool(gboolean: gtk_widget_get_visible(window)) ? window : nil
        }
    }
}
