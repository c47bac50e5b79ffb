import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The pop-out mini window: on top under a real X11 window manager, the same session as the tab
/// (the printer sees one client), its own small conversion size, and back where it was (X11).
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

    func testTheMiniWindowComesBackWhereItWas() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 30)
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], miniWindows: [
            .init(printerID: printer.id, cameraID: nil, width: 400, height: 225, x: 700, y: 500),
        ]))
        try MainActor.assumeIsolated {
            var (app, window) = try startApp(in: directory)
            var mini = try XCTUnwrap(app.miniWindows[printer.id], "the mini window is restored")
            XCTAssertTrue(iterateMainContext(timeout: 10) { WindowPosition.read(mini.window) != nil })
            XCTAssertTrue(iterateMainContext(timeout: 5) { WindowPosition.read(mini.window).map { [$0.x, $0.y] } == [700, 500] },
                          "at its saved place: \(String(describing: WindowPosition.read(mini.window)))")

            // The user moves it (the window manager does), then quits.
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(mini.window))))
            XCTAssertEqual(XWindow.move(xid, x: 250, y: 160), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { WindowPosition.read(mini.window).map { [$0.x, $0.y] } != [700, 500] })
            _ = iterateMainContext(timeout: 1) { false }
            let moved = try XCTUnwrap(WindowPosition.read(mini.window))
            app.quit()
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil && app.miniWindows.all.isEmpty })
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.miniWindows.first)
            XCTAssertEqual([saved.x, saved.y], [Int(moved.x), Int(moved.y)], "its place is saved")

            // Next time it comes back there.
            (app, window) = try startApp(in: directory)
            defer { window.close() }
            mini = try XCTUnwrap(app.miniWindows[printer.id])
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                WindowPosition.read(mini.window).map { [$0.x, $0.y] } == [moved.x, moved.y]
            }, "\(String(describing: WindowPosition.read(mini.window))) after \(moved)")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testTheMiniWindowOpensBesideTheMainWindowAndItsMenuIsNotCoveredByItsTooltip() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 30)
        let directory = try makeTemporaryDirectory()
        // Two cameras: its menu has items (Show Camera 1 and 2), so the window has a menu button.
        let printer = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: clip.path), PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], window: .init(width: 800, height: 600, maximized: false)))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { window.close() }
            XCTAssertTrue(iterateMainContext(timeout: 10) { WindowPosition.read(window.window) != nil })
            let mainXID = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertEqual(XWindow.move(mainXID, x: 100, y: 80), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { WindowPosition.read(window.window).map { $0.x != 0 && $0.y != 0 } ?? false })
            _ = iterateMainContext(timeout: 1) { false }
            let main = try XCTUnwrap(WindowPosition.read(window.window))
            let mainWidth = gtk_widget_get_width(window.window)

            // Popped out: level with the main window's top, right of its right edge (not at the screen's corner).
            app.togglePopOut(try XCTUnwrap(window.tabs.selected).camera!)
            var mini = try XCTUnwrap(app.miniWindows[printer.id])
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                WindowPosition.read(mini.window).map { [$0.x, $0.y] } == [main.x + mainWidth + 12, main.y]
            }, "\(String(describing: WindowPosition.read(mini.window))) beside \(main), \(mainWidth) wide")

            // The pointer on the button (where its tooltip shows), the menu opens; the tooltip stays off while it is open.
            XCTAssertEqual(gtk_widget_get_has_tooltip(mini.menuButton), 1, "the button says what it is")
            let middle = (x: Double(gtk_widget_get_width(mini.menuButton)) / 2, y: Double(gtk_widget_get_height(mini.menuButton)) / 2)
            XCTAssertEqual(Pointer(widget: mini.menuButton).at(middle.x, middle.y), 0, "xdotool")
            XCTAssertTrue(iterateMainContext(timeout: 3) { gtk_widget_get_opacity(gtk_widget_get_parent(mini.menuButton)) == 1 },
                          "the buttons show under the pointer")
            gtk_menu_button_popup(gcast(mini.menuButton))
            XCTAssertTrue(iterateMainContext(timeout: 5) { mini.isMenuOpen })
            _ = iterateMainContext(timeout: 1) { false }  // longer than the tooltip's delay
            XCTAssertEqual(gtk_widget_get_has_tooltip(mini.menuButton), 0, "no tooltip over the menu's first item")
            ScreenCapture.saveIfAsked(as: "mini-window-menu")
            gtk_menu_button_popdown(gcast(mini.menuButton))
            XCTAssertTrue(iterateMainContext(timeout: 5) { !mini.isMenuOpen })
            XCTAssertEqual(gtk_widget_get_has_tooltip(mini.menuButton), 1, "the tooltip is back once the menu is closed")

            // Moved by the user and closed, it opens again where it was left, not beside.
            let miniXID = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(mini.window))))
            XCTAssertEqual(XWindow.move(miniXID, x: 300, y: 700), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { WindowPosition.read(mini.window).map { $0.y > 600 } ?? false })
            _ = iterateMainContext(timeout: 1) { false }
            let left = try XCTUnwrap(WindowPosition.read(mini.window))
            mini.close()
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.miniWindows[printer.id] == nil })
            app.togglePopOut(try XCTUnwrap(window.tabs.selected).camera!)
            mini = try XCTUnwrap(app.miniWindows[printer.id])
            defer { mini.close() }
            XCTAssertTrue(iterateMainContext(timeout: 10) { WindowPosition.read(mini.window).map { [$0.x, $0.y] } == [left.x, left.y] },
                          "\(String(describing: WindowPosition.read(mini.window))), left at \(left)")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testTheMenuButtonShowsOnlyWhileTheMenuHasAnItem() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 30)
        let directory = try makeTemporaryDirectory()
        // A plain camera's menu has no item (nothing to control, no other camera to show); a printer
        // with two cameras offers them.
        let single = Printer(name: "Door", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        let double = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: clip.path), PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [single, double]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { window.close() }
            for printer in [single, double] {
                app.togglePopOut(try XCTUnwrap(window.tabs.page(id: printer.id)?.camera))
                let mini = try XCTUnwrap(app.miniWindows[printer.id])
                defer { mini.close() }
                let wanted = printer.cameras.count > 1
                XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_visible(mini.menuButton)) == wanted },
                              "\(printer.name): the menu button shows: \(wanted)")
                if wanted { Screen.save("mini-menu-button") }
            }
        }
    }

    func testClosingTheMainWindowLeavesTheMiniWindowPlaying() throws {
        let windowManager = try WindowManager()
        let camera = try TestServer(script: "mjpeg_server.py", arguments: ["--width", "640", "--height", "360", "--fps", "10"])
        addTeardownBlock { camera.stop() }
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: "http://127.0.0.1:\(camera.port)/?action=stream")])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.selected?.state == .live })
            app.togglePopOut(try XCTUnwrap(window.tabs.selected).camera!)
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            XCTAssertTrue(iterateMainContext(timeout: 10) { mini.surface.shownFrame != nil && gtk_widget_get_mapped(mini.window) != 0 })

            // The main window closes; the mini window stays, mapped, its picture still moving.
            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil })
            XCTAssertTrue(app.miniWindows[printer.id] === mini, "the mini window stays open")
            XCTAssertEqual(gtk_widget_get_mapped(mini.window), 1, "and on screen")
            XCTAssertEqual(ClosedTabTests.windows(of: app).count, 1, "the application keeps running with it")
            let shown = try XCTUnwrap(mini.surface.shownFrame?.decodedAt)
            XCTAssertTrue(iterateMainContext(timeout: 5) { (mini.surface.shownFrame?.decodedAt ?? 0) > shown }, "new frames keep coming")
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("mini-window-alone")

            // Opened again, the main window comes back without a second mini window.
            app.activate()
            let again = try XCTUnwrap(app.window)
            XCTAssertTrue(iterateMainContext(timeout: 10) { again.tabs.selected?.state == .live })
            XCTAssertTrue(app.miniWindows[printer.id] === mini, "the same mini window")
            XCTAssertEqual(ClosedTabTests.windows(of: app).count, 2, "the main window and the one mini window")
            XCTAssertEqual(camera.events(named: "request").filter { $0.string("path")?.contains("stream") ?? false }.count, 1,
                           "tab and mini window still share one connection")

            // Main window closed again, closing the last mini window ends it all: nothing holds the camera-only app.
            gtk_window_close(gcast(again.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil })
            mini.close()
            XCTAssertTrue(app.miniWindows.all.isEmpty)
            XCTAssertTrue(ClosedTabTests.windows(of: app).isEmpty, "no window left")
            XCTAssertFalse(app.background.isHeld, "a camera alone is nothing to watch in the background")
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.miniWindows, [], "closed by the user, it is not restored")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testQuitClosesTheMiniWindowsToComeBack() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 30)
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            app.togglePopOut(try XCTUnwrap(window.tabs.selected).camera!)
            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil })
            XCTAssertNotNil(app.miniWindows[printer.id])
            app.quit()
            XCTAssertTrue(app.miniWindows.all.isEmpty, "Quit closes the mini windows too")
            XCTAssertTrue(ClosedTabTests.windows(of: app).isEmpty)
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.miniWindows.map(\.printerID), [printer.id],
                           "and they come back next time")
        }
    }

    func testBesideIsRightThenLeftThenInsideAndOnTheMonitor() {
        let monitor = WindowPosition.Frame(x: 0, y: 0, width: 1600, height: 1200)
        let size: (width: Int32, height: Int32) = (480, 270)
        func place(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) -> [Int32] {
            let point = WindowPosition.beside(.init(x: x, y: y, width: width, height: height), size: size, on: monitor, gap: 12)
            return [point.x, point.y]
        }
        XCTAssertEqual(place(100, 80, 800, 600), [912, 80], "right of the right edge")
        XCTAssertEqual(place(700, 80, 800, 600), [208, 80], "left when the right has no room")
        XCTAssertEqual(place(300, 80, 1200, 900), [1008, 698], "inside the bottom-right corner when neither side has room")
        XCTAssertEqual(place(100, 1100, 800, 100), [912, 930], "kept on the monitor")
        let second = WindowPosition.Frame(x: 1600, y: 0, width: 1920, height: 1080)
        let point = WindowPosition.beside(.init(x: 1700, y: 50, width: 1000, height: 700), size: size, on: second, gap: 12)
        XCTAssertEqual([point.x, point.y], [2712, 50], "on the main window's own monitor")
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
