import CGtk
import GtkKit
@testable import LayerwatchApp
import StreamKit
import TestSupport
import XCTest

/// The pop-out mini window: on top under a real X11 window manager, the same session as the tab
/// (the printer sees one client), its own small conversion size.
final class MiniWindowTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testMiniWindowStaysOnTopAndSharesTheTabsConnection() throws {
        let windowManager = try WindowManager()
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "1280", "--height", "720"])
        let registry = SessionRegistry()
        let source = try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1")
        let session = registry.session(for: source)
        addTeardownBlock { session.stop() }
        try MainActor.assumeIsolated {
            let tab = PageWindow(name: "Garage X1C", session: session, width: 1000, height: 700)
            defer { tab.close() }
            XCTAssertTrue(iterateMainContext(timeout: 15) { tab.page.state == .live })

            let camera = Camera(name: "Garage X1C", source: source)
            let mini = MiniWindow(camera: camera, session: registry.session(for: source), application: nil)
            mini.present()
            XCTAssertEqual(mini.keepAbove, .requested)
            XCTAssertEqual(String(cString: gtk_window_get_title(gcast(mini.window))), "Garage X1C - PiP")
            let picture = try XCTUnwrap(mini.surface.picture)
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(picture) != 0 })
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(mini.window))))
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                WindowManager.property("_NET_WM_STATE", of: xid).contains("_NET_WM_STATE_ABOVE")
            }, WindowManager.property("_NET_WM_STATE", of: xid))
            let hints = WindowManager.property("WM_NORMAL_HINTS", of: xid)
            XCTAssertTrue(hints.contains("aspect ratio: 1280/720"), "the mini window keeps the stream's aspect: \(hints)")
            XCTAssertEqual(session.consumerCount, 2, "tab and mini window are two views of one session")
            XCTAssertEqual(server.events(named: "client").count, 1, "the printer sees one client for both")

            // Shown alone (the main window minimised or covered), the mini window converts at its own size.
            gtk_widget_set_visible(tab.page.widget, 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { (session.stats.outputSize?.width ?? 0) <= 480 },
                          "converted at the mini window's size: \(String(describing: session.stats.outputSize))")
            gtk_widget_set_visible(tab.page.widget, 1)

            mini.close()
            XCTAssertTrue(iterateMainContext(timeout: 5) { session.consumerCount == 1 })
            XCTAssertEqual(session.state, .live, "closing the mini window leaves the tab streaming")
            XCTAssertEqual(server.events(named: "client").count, 1)
        }
        withExtendedLifetime(windowManager) {}
    }

    func testWaylandHintsFitTheDesktop() {
        XCTAssertTrue(KeepAboveHint.text(desktop: "GNOME").contains("Always on Top"))
        XCTAssertTrue(KeepAboveHint.text(desktop: "ubuntu:GNOME").contains("right-click its title"))
        XCTAssertTrue(KeepAboveHint.text(desktop: "KDE").contains("Alt+F3"))
        XCTAssertTrue(KeepAboveHint.text(desktop: "sway").contains("- PiP"))
        XCTAssertTrue(KeepAboveHint.text(desktop: "Hyprland").contains("pin"))
        XCTAssertTrue(KeepAboveHint.text(desktop: nil).contains("window rule"))
    }
}
