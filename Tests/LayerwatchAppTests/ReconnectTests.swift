import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// Reconnect is an action of the picture it is asked from (`camera.reconnect`): the tab's control
/// bar and Ctrl+R reconnect the tab's camera, Ctrl+R and the tile's menu in the farm the selected
/// tile's, Ctrl+R in a mini window its own; each time that camera sees a new client, the other not.
final class ReconnectTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testReconnectActsOnThePictureItIsAskedFrom() throws {
        let windowManager = try WindowManager()
        let servers = try (0..<2).map { _ in try TestServer(script: "rtsp_server.py", arguments: ["--width", "320", "--height", "180", "--fps", "10"]) }
        addTeardownBlock { servers.forEach { $0.stop() } }
        let printers = zip(["One", "Two"], servers).map { name, server in
            Printer(name: name, kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(server.port)/streaming/live/1")])
        }
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: printers, selectedPrinterID: printers[0].id, window: .init(width: 1000, height: 700, maximized: false)))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.all.count == 2 && window.tabs.all.allSatisfy { $0.state == .live } })
            let one = try XCTUnwrap(window.tabs.page(id: printers[0].id))
            XCTAssertTrue(window.tabs.selected === one)
            _ = iterateMainContext(timeout: 5) { Bool(gboolean: gtk_window_is_active(gcast(window.window))) }
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            @MainActor func clients() -> [Int] { servers.map { $0.events(named: "client").count } }
            XCTAssertEqual(clients(), [1, 1])
            ScreenCapture.saveIfAsked(as: "reconnect-control-bar")

            // The tab: its control bar's button, then Ctrl+R.
            let button = try XCTUnwrap(descendants(of: one.controls.widget).first { gtk_widget_has_css_class($0, "feature-reconnect") != 0 })
            XCTAssertEqual(String(cString: gtk_actionable_get_action_name(gcast(button))), "camera.reconnect")
            gtk_widget_activate(button)
            XCTAssertTrue(iterateMainContext(timeout: 10) { clients() == [2, 1] }, "the bar's button: \(clients())")
            XCTAssertEqual(Keyboard.press("ctrl+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { clients() == [3, 1] }, "Ctrl+R in the tab: \(clients())")

            // The farm: the selected tile's camera, from its menu and from Ctrl+R; no zoom there.
            window.setFarmShown(true)
            let two = try XCTUnwrap(window.farm.tile(id: printers[1].id))
            two.openMenu()
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.tabs.selected?.printerID == printers[1].id }, "the menu selects its printer")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "reconnect-tile-menu")
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(two.widget, "camera.reconnect", nil)), "the tile's menu finds Reconnect")
            XCTAssertTrue(iterateMainContext(timeout: 10) { clients() == [3, 2] }, "the tile's menu: \(clients())")
            XCTAssertFalse(Bool(gboolean: gtk_widget_activate_action_variant(two.widget, "camera.zoom-in", nil)), "the farm's tiles do not zoom")
            Self.closeMenus(of: window.window)
            window.farm.focus(printers[1].id)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.farm.focusedTile === two })
            XCTAssertEqual(Keyboard.press("ctrl+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { clients() == [3, 3] }, "Ctrl+R in the farm: \(clients())")
            window.setFarmShown(false)

            // A mini window: its own picture.
            app.togglePopOut(try XCTUnwrap(one.camera))
            let mini = try XCTUnwrap(app.miniWindows[printers[0].id])
            XCTAssertTrue(iterateMainContext(timeout: 10) { mini.surface.shownFrame != nil })
            _ = iterateMainContext(timeout: 5) { Bool(gboolean: gtk_window_is_active(gcast(mini.window))) }
            let miniXID = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(mini.window))))
            XCTAssertEqual(Keyboard.press("ctrl+r", window: miniXID), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { clients() == [4, 3] }, "Ctrl+R in the mini window: \(clients())")
            mini.close()
        }
        withExtendedLifetime(windowManager) {}
    }

    /// Closes the popovers open in `window` (the tile's menu), so the keyboard goes back to the tiles.
    @MainActor
    private static func closeMenus(of window: UnsafeMutablePointer<GtkWidget>) {
        for widget in descendants(of: window) where Bool(gboolean: g_type_check_instance_is_a(gcast(widget), gtk_popover_get_type())) {
            gtk_popover_popdown(gcast(widget))
        }
    }
}
