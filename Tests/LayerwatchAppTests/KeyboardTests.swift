import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The keyboard, as a user presses it: real X key events (XTEST through xdotool) into the real
/// window under a window manager, reaching the app's accelerators and the tab view's shortcuts.
final class KeyboardTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testShortcutsSwitchTabsToggleStatsFullscreenAndOpenDialogs() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let printers = ["One", "Two", "Three"].map { Printer(name: $0, kind: .generic, cameras: [PrinterCamera(url: clip.path)]) }
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: printers, selectedPrinterID: printers[0].id))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 })
            func press(_ keys: String) {
                XCTAssertEqual(Keyboard.press(keys, window: xid), 0, "xdotool \(keys)")
            }

            press("ctrl+Page_Down")
            XCTAssertTrue(iterateMainContext(timeout: 3) { window.tabs.selected?.name == "Two" }, "Ctrl+PgDn: next tab")
            press("alt+3")
            XCTAssertTrue(iterateMainContext(timeout: 3) { window.tabs.selected?.name == "Three" }, "Alt+3: third tab")
            press("ctrl+Page_Up")
            XCTAssertTrue(iterateMainContext(timeout: 3) { window.tabs.selected?.name == "Two" }, "Ctrl+PgUp: previous tab")

            press("ctrl+i")
            XCTAssertTrue(iterateMainContext(timeout: 3) { window.tabs.selected?.surface!.stats.isShown ?? false }, "Ctrl+I: stats")

            press("F11")
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isFullscreen }, "F11: fullscreen")
            XCTAssertEqual(gtk_widget_get_visible(window.tabs.selected?.controls.widget), 0, "fullscreen shows only the video")
            press("Escape")
            XCTAssertTrue(iterateMainContext(timeout: 5) { !window.isFullscreen }, "Esc leaves fullscreen")
            XCTAssertEqual(gtk_widget_get_visible(window.tabs.selected?.controls.widget), 1)

            press("ctrl+shift+p")
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.miniWindows[printers[1].id] != nil }, "Ctrl+Shift+P: mini window")
            app.miniWindows[printers[1].id]?.close()

            press("ctrl+t")
            XCTAssertTrue(iterateMainContext(timeout: 3) { app.editor.openDialog != nil }, "Ctrl+T: Add Printer")
            if let dialog = app.editor.openDialog { gtk_window_destroy(gcast(dialog.window)) }

            press("ctrl+w")
            XCTAssertTrue(iterateMainContext(timeout: 3) { window.tabs.open.map(\.name) == ["One", "Three"] }, "Ctrl+W closes the tab")
            XCTAssertNil(app.editor.pendingRemoval, "without removing the printer")
            XCTAssertEqual(app.library.config.printers.map(\.name), ["One", "Two", "Three"])
        }
        withExtendedLifetime(windowManager) {}
    }
}
