import CGtk
@testable import CameraKit
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A printer with several cameras against real peers (Moonraker, two MJPEG cameras, a notification
/// server on the test's bus): a format-2 file that saved a Klipper printer's two cameras as two
/// printers opens as one printer — one tab, one status connection, one notification — and its tab
/// switches cameras in one picture widget, each camera keeping its one connection; the mini window
/// and the farm tile follow the camera shown, and files name it.
final class MultiCameraPrinterTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAFormatTwoKlipperPrinterWithTwoCamerasIsOnePrinterWithOneStatusConnectionAndOneNotification() throws {
        let notifications = try notificationServer()
        let moonraker = try TestServer(script: "moonraker_server.py")
        let nozzle = try TestServer(script: "mjpeg_server.py"), bed = try TestServer(script: "mjpeg_server.py")
        let first = UUID(), second = UUID()
        let config = try makeTemporaryDirectory(), state = try makeTemporaryDirectory()
        let json = """
        {"formatVersion": 2, "printers": [
          {"id": "\(first)", "name": "Voron — Nozzle", "kind": "klipper", "host": "127.0.0.1", "apiPort": \(moonraker.port),
           "url": "http://127.0.0.1:\(nozzle.port)/?action=stream", "rotation": 90},
          {"id": "\(second)", "name": "Voron — Bed", "kind": "klipper", "host": "127.0.0.1", "apiPort": \(moonraker.port),
           "url": "http://127.0.0.1:\(bed.port)/?action=stream", "flipVertical": true}],
         "selectedPrinterID": "\(second)"}
        """
        try Data(json.utf8).write(to: config.appendingPathComponent("printers.json"))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertEqual(window.tabs.all.map(\.name), ["Voron"], "one printer, one tab")
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertEqual(page.cameras.map(\.title), ["Nozzle", "Bed"])
            XCTAssertEqual(page.cameras.map(\.orientation), [PictureOrientation(rotation: 90, flipHorizontal: false, flipVertical: false),
                                                             PictureOrientation(rotation: 0, flipHorizontal: false, flipVertical: true)])
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.status.strip.stateText == "Idle" })
            app.flushSaves()
            let saved = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: config.appendingPathComponent("printers.json"))) as? [String: Any])
            XCTAssertEqual(saved["formatVersion"] as? Int, 3, "written in this format at once")
            XCTAssertEqual((saved["printers"] as? [Any])?.count, 1)

            // One status connection: Moonraker polled every 2 s, not twice as often.
            let queries = { moonraker.events(named: "request").filter { $0.string("path")?.hasPrefix("/printer/objects/query") ?? false }.count }
            let before = queries()
            _ = iterateMainContext(timeout: 10) { false }
            XCTAssertLessThanOrEqual(queries() - before, 7, "one poller in 10 s (two would ask about 10 times)")

            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "Benchy.gcode"]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.status.strip.stateText == "Printing" })
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "complete"]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { notifications.events(named: "notification").count == 1 })
            XCTAssertFalse(iterateMainContext(timeout: 4) { notifications.events(named: "notification").count > 1 },
                           "one notification for the printer, not one per camera")
            XCTAssertEqual(notifications.events(named: "notification").first?.string("title"), "Voron: print finished")

            window.setFarmShown(true)
            XCTAssertEqual(window.farm.tiles.count, 1, "one tile")
        }
    }

    func testTheSwitcherShowsEachCameraInOnePictureWithOneConnectionEachAndTheMiniWindowFollows() throws {
        let windowManager = try WindowManager()
        let nozzle = try TestServer(script: "mjpeg_server.py"), bed = try TestServer(script: "mjpeg_server.py")
        let printer = Printer(name: "Bench", kind: .generic,
                              cameras: [PrinterCamera(name: "Nozzle", url: "http://127.0.0.1:\(nozzle.port)/?action=stream"),
                                        PrinterCamera(name: "Bed", url: "http://127.0.0.1:\(bed.port)/?action=stream", rotation: 180)])
        let (config, state) = try directories(with: [printer])
        let snapshots = try makeTemporaryDirectory(), recordings = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.snapshotFolder = snapshots
            window.recordingFolder = recordings
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(gtk_widget_get_visible(page.switcher) != 0, "two cameras: the switcher shows")
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.sessions.allSatisfy { $0.state == .live } && page.surface!.shownFrame != nil },
                          "both cameras connect, the first is shown")
            let picture = try XCTUnwrap(page.surface!.picture)
            let firstFrame = page.surface!.shownFrame

            // Alt+Shift+2, by the digit key, whatever the layout's shifted symbol.
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertEqual(Keyboard.press("alt+shift+2", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.shownIndex == 1 }, "Alt+Shift+2 shows the second camera")
            XCTAssertTrue(page.session === page.sessions[1])
            XCTAssertEqual(Int(gtk_drop_down_get_selected(gcast(page.switcher))), 1, "the switcher says so")
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.surface!.shownFrame.map { $0 !== firstFrame } ?? false })
            XCTAssertEqual(page.surface!.picture, picture, "the same picture widget")
            XCTAssertEqual(page.surface!.lifecycle.dismantles, 0)
            XCTAssertEqual(window.farm.tiles.first?.camera!.id, printer.cameras[1].id, "the farm tile follows")

            // Files name the camera of a printer with several.
            window.activate("camera.snapshot")
            XCTAssertTrue(iterateMainContext(timeout: 10) { (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path).count) == 1 })
            let snapshot = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: snapshots.path).first)
            XCTAssertTrue(snapshot.hasPrefix("Bench — Bed "), snapshot)
            window.tabs.selected?.setRecording(true)
            let started = try XCTUnwrap(page.session!.recording)
            XCTAssertTrue(iterateMainContext(timeout: 10) { started.current.seconds > 0.5 }, "pictures recorded")
            window.tabs.selected?.setRecording(false)
            XCTAssertTrue(iterateMainContext(timeout: 10) { started.current.isFinished })
            let recording = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: recordings.path).first)
            XCTAssertTrue(recording.hasPrefix("Bench — Bed ") && recording.hasSuffix(".mkv"), recording)

            // The mini window pops out the camera shown, and follows the switcher.
            app.togglePopOut(page.camera!)
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            XCTAssertEqual(mini.camera.id, printer.cameras[1].id)
            gtk_drop_down_set_selected(gcast(page.switcher), 0)
            XCTAssertEqual(page.shownIndex, 0)
            XCTAssertEqual(mini.camera.id, printer.cameras[0].id, "the mini window follows the tab's camera")
            XCTAssertTrue(mini.surface.session === page.sessions[0])
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: config, secrets: nil).load().config.miniWindows.first?.cameraID, printer.cameras[0].id)

            // Back and forth: still one connection to each camera, never a new one.
            for index in [1, 0, 1] { page.showCamera(at: index) }
            _ = iterateMainContext(timeout: 2) { false }
            for server in [nozzle, bed] {
                XCTAssertEqual(server.events(named: "request").count, 1, "one request to each camera")
                XCTAssertTrue(server.events(named: "stream-closed").isEmpty, "each camera's stream stays open")
            }
        }
        withExtendedLifetime(windowManager) {}
    }
    /// The farm tile's and the mini window's menus name the cameras of the printer they act on, as
    /// its tab's switcher does: "Show Chamber" and "Show Nozzle" on one printer's tile, "Show Top"
    /// and "Show Side" on the other's (the tiles share one menu, titled for the printer whose menu
    /// opens), its own printer's in a mini window whatever the main window has selected; clicking an
    /// item shows that camera in the printer's tab, tile and mini window.
    func testTheTileAndMiniWindowMenusNameThatPrintersCamerasAndShowThem() throws {
        let windowManager = try WindowManager()
        func clip() throws -> String { try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 60).path }
        let bench = Printer(name: "Bench", kind: .generic,
                            cameras: [PrinterCamera(name: "Chamber", url: try clip()), PrinterCamera(name: "Nozzle", url: try clip())])
        let anvil = Printer(name: "Anvil", kind: .generic,
                            cameras: [PrinterCamera(name: "Top", url: try clip()), PrinterCamera(name: "Side", url: try clip())])
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: [bench, anvil], selectedPrinterID: anvil.id, farm: .init(shown: true, attentionFirst: false)))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let benchTile = try XCTUnwrap(window.farm.tile(id: bench.id)), anvilTile = try XCTUnwrap(window.farm.tile(id: anvil.id))
            XCTAssertTrue(iterateMainContext(timeout: 10) { Bool(gboolean: gtk_widget_get_mapped(benchTile.widget)) })

            // Bench's tile: its cameras' names, in the menu and on screen.
            benchTile.openMenu()
            XCTAssertTrue(iterateMainContext(timeout: 5) { benchTile.isMenuOpen && shownItems(in: benchTile.widget).contains("Show Nozzle") },
                          "\(shownItems(in: benchTile.widget))")
            XCTAssertEqual(cameraItems(menuButton(in: benchTile.widget)).prefix(2), ["Show Chamber", "Show Nozzle"])
            XCTAssertEqual(shownItems(in: benchTile.widget).filter { $0.hasPrefix("Show ") }, ["Show Chamber", "Show Nozzle"],
                           "cameras 3 to 9 stay hidden")
            iterateFrames(10)  // drawn, for a screenshot
            ScreenCapture.saveIfAsked(as: "tile-menu-camera-names")
            try activate("Show Nozzle", in: try XCTUnwrap(menuButton(in: benchTile.widget)))
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.tabs.page(id: bench.id)?.camera?.title == "Nozzle" }, "Show Nozzle shows it in the tab")
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.farm.tile(id: bench.id)?.camera?.title == "Nozzle" }, "and on its tile")
            XCTAssertEqual(window.tabs.page(id: anvil.id)?.camera?.title, "Top", "the other printer keeps its camera")
            // (Bench's tile is a new one now, on the Nozzle's session: the old one is gone with its menu.)
            iterateFrames(30)  // the popover's X window goes, and with it its pointer grab

            // Anvil's tile: the same shared menu, now with Anvil's names.
            anvilTile.openMenu()
            XCTAssertTrue(iterateMainContext(timeout: 5) { anvilTile.isMenuOpen && shownItems(in: anvilTile.widget).contains("Show Side") },
                          "\(shownItems(in: anvilTile.widget))")
            XCTAssertEqual(cameraItems(menuButton(in: anvilTile.widget)).prefix(2), ["Show Top", "Show Side"])
            XCTAssertEqual(shownItems(in: anvilTile.widget).filter { $0.hasPrefix("Show ") }, ["Show Top", "Show Side"])
            gtk_menu_button_popdown(gcast(try XCTUnwrap(menuButton(in: anvilTile.widget))))
            XCTAssertTrue(iterateMainContext(timeout: 3) { !anvilTile.isMenuOpen })
            iterateFrames(30)
            XCTAssertEqual(window.tabs.selected?.printerID, anvil.id)

            // Bench's mini window, with Anvil selected in the main window: Bench's names; Show Chamber shows it there.
            app.togglePopOut(try XCTUnwrap(window.tabs.page(id: bench.id)).camera!)
            let mini = try XCTUnwrap(app.miniWindows[bench.id])
            defer { mini.close() }
            // The user's click makes it the active window, whose printer its menu's items act on.
            gtk_window_present(gcast(mini.window))
            XCTAssertTrue(iterateMainContext(timeout: 10) { Bool(gboolean: gtk_window_is_active(gcast(mini.window))) })
            let miniMenu = try XCTUnwrap(menuButton(in: mini.window))
            gtk_menu_button_popup(gcast(miniMenu))
            XCTAssertTrue(iterateMainContext(timeout: 5) { mini.isMenuOpen && shownItems(in: mini.window).contains("Show Chamber") },
                          "\(shownItems(in: mini.window))")
            XCTAssertEqual(cameraItems(miniMenu).prefix(2), ["Show Chamber", "Show Nozzle"])
            XCTAssertEqual(shownItems(in: mini.window).filter { $0.hasPrefix("Show ") }, ["Show Chamber", "Show Nozzle"])
            iterateFrames(10)  // drawn, for a screenshot
            ScreenCapture.saveIfAsked(as: "mini-menu-camera-names")
            try activate("Show Chamber", in: miniMenu)
            XCTAssertTrue(iterateMainContext(timeout: 5) { mini.camera.title == "Chamber" }, "the mini window shows its printer's Chamber")
            XCTAssertEqual(window.tabs.page(id: bench.id)?.camera?.title, "Chamber", "as its tab does")
            XCTAssertEqual(window.tabs.page(id: anvil.id)?.camera?.title, "Top", "not the selected printer's")
        }
        withExtendedLifetime(windowManager) {}
    }

    /// The menu button in `widget` (a tile, a mini window).
    @MainActor
    private func menuButton(in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        descendants(of: widget).first { String(cString: gtk_widget_get_css_name($0)) == "menubutton" }
    }

    /// The "Show …" items of the menu model of `button`, in order.
    @MainActor
    private func cameraItems(_ button: UnsafeMutablePointer<GtkWidget>?) -> [String] {
        menuLabels(button.flatMap { gtk_menu_button_get_menu_model(gcast($0)) }).filter { $0.hasPrefix("Show ") }
    }

    /// The labels of the menu items shown now in `widget`'s open menu.
    @MainActor
    private func shownItems(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        descendants(of: widget).filter { String(cString: gtk_widget_get_css_name($0)) == "modelbutton" && Bool(gboolean: gtk_widget_is_visible($0)) }
            .flatMap { button in descendants(of: button).filter { String(cString: gtk_widget_get_css_name($0)) == "label" } }
            .compactMap { gtk_label_get_text(gcast($0)).map { String(cString: $0) } }
    }

    /// Activates the item of `button`'s open menu saying `text`, as a click on it does: the menu
    /// closes, then the item's action runs, from where the menu was.
    @MainActor
    private func activate(_ text: String, in button: UnsafeMutablePointer<GtkWidget>) throws {
        let menu = try XCTUnwrap(gtk_menu_button_get_menu_model(gcast(button)))
        let index = try XCTUnwrap(menuLabels(menu).firstIndex(of: text), "\(text) in \(menuLabels(menu))")
        let action = menuAction(menu, at: Int32(index))
        gtk_menu_button_popdown(gcast(button))
        XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(button, action, nil)), text)
    }
}
