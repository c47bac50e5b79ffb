import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The header bar's primary menu as GNOME users reach it: F10 (a real key press) opens it, its last
/// section ends with Quit; and About says what the app does today.
final class MainMenuTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testF10OpensTheMainMenuWhoseLastItemIsQuit() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "One", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { window.close() }
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 })
            _ = iterateMainContext(timeout: 1) { false }  // a freshly mapped window settles first
            let popover = try XCTUnwrap(gtk_menu_button_get_popover(gcast(window.menuButton)))
            XCTAssertEqual(gtk_widget_get_visible(gcast(popover)), 0)
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertEqual(Keyboard.press("F10", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_visible(gcast(popover)) != 0 }, "F10 opens the main menu")
            gtk_menu_button_popdown(gcast(window.menuButton))

            let menu = try XCTUnwrap(gtk_menu_button_get_menu_model(gcast(window.menuButton)))
            let sections = g_menu_model_get_n_items(menu)
            let last = try XCTUnwrap(g_menu_model_get_item_link(menu, sections - 1, "section"))
            defer { g_object_unref(UnsafeMutableRawPointer(last)) }
            let items = (0..<g_menu_model_get_n_items(last)).map { menuAction(last, at: $0) }
            XCTAssertEqual(items, ["app.preferences", "win.show-help-overlay", "app.about", "app.quit"], "GNOME's order")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testAboutDescribesTodaysApp() {
        MainActor.assumeIsolated {
            let text = AppMenu.comments
            for words in ["Bambu Lab", "Klipper", "Moonraker", "OctoPrint", "Creality", "RTSP", "MJPEG", "WebRTC", "progress", "finishes, fails or pauses",
                          "farm view", "pauses, resumes and stops prints", "mini window", "records", "timelapse"] {
                XCTAssertTrue(text.contains(words), "About mentions \(words): \(text)")
            }
        }
    }
}
