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
        try MainActor.assumeIsolated {
            let two = try TwoCameraApp(for: self)
            let (app, window, printers, servers, xid) = (two.app, two.window, two.printers, two.servers, two.xid)
            defer { gtk_window_destroy(gcast(window.window)) }
            let one = two.pages[0]
            @MainActor func clients() -> [Int] { servers.map { $0.events(named: "client").count } }
            XCTAssertEqual(clients(), [1, 1])
            ScreenCapture.saveIfAsked(as: "reconnect-control-bar")

            // The tab: its control bar's button, then Ctrl+R.
            let button = try two.button("reconnect", of: one)
            XCTAssertEqual(String(cString: gtk_actionable_get_action_name(gcast(button))), "camera.reconnect")
            gtk_widget_activate(button)
            XCTAssertTrue(iterateMainContext(timeout: 10) { clients() == [2, 1] }, "the bar's button: \(clients())")
            XCTAssertEqual(Keyboard.press("ctrl+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { clients() == [3, 1] }, "Ctrl+R in the tab: \(clients())")

            // The farm: the selected tile's camera, from its menu and from Ctrl+R; no zoom there.
            let tile = try two.openTwosTileMenu()
            ScreenCapture.saveIfAsked(as: "reconnect-tile-menu")
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(tile.widget, "camera.reconnect", nil)), "the tile's menu finds Reconnect")
            XCTAssertTrue(iterateMainContext(timeout: 10) { clients() == [3, 2] }, "the tile's menu: \(clients())")
            XCTAssertFalse(Bool(gboolean: gtk_widget_activate_action_variant(tile.widget, "camera.zoom-in", nil)), "the farm's tiles do not zoom")
            two.focusTwosTile()
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
}
