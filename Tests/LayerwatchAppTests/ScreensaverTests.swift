import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// Fullscreen keeps the screen awake: the app asks the session manager (org.gnome.SessionManager on
/// the test's private session bus, a real D-Bus peer) for an idle inhibition for its window while a
/// camera is fullscreen, and gives it back when the window leaves fullscreen or closes.
final class ScreensaverTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testFullscreenInhibitsIdleUntilItEnds() throws {
        let sessionManager = try TestServer(script: "session_manager.py")
        let windowManager = try WindowManager()
        let directory = try benchDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try Self.startMapped(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let xid = Int(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertTrue(sessionManager.events(named: "inhibit").isEmpty, "nothing inhibited before fullscreen")

            gtk_widget_activate_action_variant(window.window, "win.fullscreen", nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isFullscreen }, "fullscreen")
            let inhibit = try XCTUnwrap(sessionManager.waitFor("inhibit", timeout: 5), "Inhibit called")
            XCTAssertEqual(inhibit.string("app_id"), String(cString: g_application_get_application_id(gcast(app.application))))
            XCTAssertEqual(inhibit.int("toplevel_xid"), xid, "the inhibition names the fullscreen window")
            XCTAssertEqual(inhibit.int("flags"), Int(GTK_APPLICATION_INHIBIT_IDLE.rawValue))
            XCTAssertEqual(inhibit.string("reason"), "Watching a printer camera fullscreen")

            gtk_widget_activate_action_variant(window.window, "win.fullscreen", nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !window.isFullscreen }, "fullscreen left")
            let uninhibit = try XCTUnwrap(sessionManager.waitFor("uninhibit", timeout: 5), "Uninhibit called")
            XCTAssertEqual(uninhibit.int("cookie"), inhibit.int("cookie"))
            XCTAssertEqual(uninhibit.fields["known"] as? Bool, true)
            XCTAssertEqual(sessionManager.events(named: "inhibit").count, 1, "one inhibition per fullscreen")
        }
        withExtendedLifetime(windowManager) {}
    }

    /// Closing the window while it is fullscreen gives the inhibition back: the screen may sleep
    /// again while Layerwatch runs on (in the background, or with a mini window).
    func testClosingTheFullscreenWindowEndsTheInhibition() throws {
        let sessionManager = try TestServer(script: "session_manager.py")
        let windowManager = try WindowManager()
        let directory = try benchDirectory()
        try MainActor.assumeIsolated {
            let (_, window) = try Self.startMapped(in: directory)
            gtk_widget_activate_action_variant(window.window, "win.fullscreen", nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isFullscreen }, "fullscreen")
            let inhibit = try XCTUnwrap(sessionManager.waitFor("inhibit", timeout: 5), "Inhibit called")

            gtk_window_close(gcast(window.window))
            let uninhibit = try XCTUnwrap(sessionManager.waitFor("uninhibit", timeout: 5), "Uninhibit called when the window closed")
            XCTAssertEqual(uninhibit.int("cookie"), inhibit.int("cookie"))
            XCTAssertEqual(uninhibit.fields["known"] as? Bool, true)
        }
        withExtendedLifetime(windowManager) {}
    }

    /// A config with one printer whose camera is a short clip.
    private func benchDirectory() throws -> URL {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        return directory
    }

    /// The app started on `directory`'s config, its window mapped.
    @MainActor
    private static func startMapped(in directory: URL) throws -> (LayerwatchApplication, MainWindow) {
        let (app, window) = try startApp(in: directory)
        XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 })
        return (app, window)
    }
}
