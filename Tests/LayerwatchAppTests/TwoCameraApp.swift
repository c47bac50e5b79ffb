import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// The app on two saved printers, "One" (selected) and "Two", each with an RTSP camera of its own,
/// both live and the window active: the set-up of the tests that ask which picture an action acted
/// on (`ReconnectTests`, `PictureCaptureTests`).
@MainActor
struct TwoCameraApp {
    let app: LayerwatchApplication
    let window: MainWindow
    let printers: [Printer]
    let servers: [TestServer]
    /// The two printers' pages, in order.
    let pages: [PrinterPage]
    /// The main window's X id, for `Keyboard.press`.
    let xid: UInt

    /// Starts it; the servers stop when `test` ends, the window is the caller's to destroy.
    init(for test: XCTestCase) throws {
        let servers = try (0..<2).map { _ in try TestServer(script: "rtsp_server.py", arguments: ["--width", "320", "--height", "180", "--fps", "10"]) }
        test.addTeardownBlock { servers.forEach { $0.stop() } }
        let printers = zip(["One", "Two"], servers).map { name, server in
            Printer(name: name, kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(server.port)/streaming/live/1")])
        }
        let directory = try test.makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: printers, selectedPrinterID: printers[0].id, window: .init(width: 1000, height: 700, maximized: false)))
        let (app, window) = try startApp(in: directory)
        XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.all.count == 2 && window.tabs.all.allSatisfy { $0.state == .live } })
        pages = try printers.map { try XCTUnwrap(window.tabs.page(id: $0.id)) }
        XCTAssertTrue(window.tabs.selected === pages[0])
        _ = iterateMainContext(timeout: 5) { Bool(gboolean: gtk_window_is_active(gcast(window.window))) }
        xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
        (self.app, self.window, self.printers, self.servers) = (app, window, printers, servers)
    }

    /// The button of feature `name` in `page`'s control bar.
    func button(_ name: String, of page: PrinterPage) throws -> UnsafeMutablePointer<GtkWidget> {
        try XCTUnwrap(descendants(of: page.controls.widget).first { gtk_widget_has_css_class($0, "feature-\(name)") != 0 }, name)
    }

    /// Shows the farm with printer Two's tile selected through its menu, which is left open.
    func openTwosTileMenu() throws -> FarmTile {
        window.setFarmShown(true)
        let two = try XCTUnwrap(window.farm.tile(id: printers[1].id))
        two.openMenu()
        XCTAssertTrue(iterateMainContext(timeout: 5) { window.tabs.selected?.printerID == printers[1].id }, "the menu selects its printer")
        _ = iterateMainContext(timeout: 1) { false }
        return two
    }

    /// Closes the popovers open in the window (the tile's menu) and puts the keyboard on Two's tile.
    func focusTwosTile() {
        for widget in descendants(of: window.window) where Bool(gboolean: g_type_check_instance_is_a(gcast(widget), gtk_popover_get_type())) {
            gtk_popover_popdown(gcast(widget))
        }
        window.farm.focus(printers[1].id)
        XCTAssertTrue(iterateMainContext(timeout: 5) { window.farm.focusedTile?.printerID == printers[1].id })
    }
}
