import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// The `printer` actions (`PrinterActions`) act on the printer whose view they are asked from — its
/// tab, selected or not, its farm tile's menu, its mini window — and the window's keys on the
/// selected one: two Moonraker printers, each command counted at the server it reached.
final class PrinterActionsTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testEachPrinterActionActsOnThePrinterItIsAskedFrom() throws {
        let windowManager = try WindowManager()
        let servers = try (0..<2).map { _ in try TestServer(script: "moonraker_server.py", arguments: []) }
        addTeardownBlock { servers.forEach { $0.stop() } }
        let closed = closedLoopbackPort()
        let printers = zip(["One", "Two"], servers).map { name, server in
            Printer(name: name, kind: .klipper, host: "127.0.0.1", apiPort: server.port,
                    cameras: ["Chamber", "Nozzle"].map { PrinterCamera(name: $0, url: "http://127.0.0.1:\(closed)/\(name)\($0)?action=stream") })
        }
        for server in servers { server.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]]) }
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: printers, selectedPrinterID: printers[0].id, window: .init(width: 1000, height: 700, maximized: false)))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let (oneID, twoID) = (printers[0].id, printers[1].id)
            XCTAssertTrue(iterateMainContext(timeout: 15) {
                [oneID, twoID].allSatisfy { app.statusHub.latest($0)?.status?.state == .printing }
            })
            let one = try XCTUnwrap(window.tabs.page(id: oneID)), two = try XCTUnwrap(window.tabs.page(id: twoID))
            XCTAssertTrue(window.tabs.selected === one)
            _ = iterateMainContext(timeout: 5) { Bool(gboolean: gtk_window_is_active(gcast(window.window))) }
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            @MainActor func posts(_ index: Int) -> [String] {
                servers[index].events(named: "request").filter { $0.string("method") == "POST" }.compactMap { $0.string("path") }
            }
            let (pause, resume, cancel) = ("/printer/print/pause", "/printer/print/resume", "/printer/print/cancel")

            // The tabs: Two's bar, though Two is not selected, pauses Two; the window's key the selected One.
            let twoPause = try XCTUnwrap(two.controls.button("pause-print"))
            XCTAssertEqual(String(cString: gtk_actionable_get_action_name(gcast(twoPause))), "printer.pause-print")
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_visible(twoPause)) }, "an unselected tab's bar follows its printer")
            // (An unselected tab's page is not realized: its button's action, as its click would.)
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(twoPause, "printer.pause-print", nil)))
            XCTAssertTrue(iterateMainContext(timeout: 10) { posts(1) == [pause] }, "\(posts(1))")
            XCTAssertEqual(Keyboard.press("ctrl+alt+p", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { posts(0) == [pause] }, "Ctrl+Alt+P in the window: \(posts(0))")
            XCTAssertEqual(posts(1), [pause], "not Two again")
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                [oneID, twoID].allSatisfy { app.statusHub.latest($0)?.status?.state == .paused }
            })

            // The farm, Two selected: One's tile resumes, edits and stops One; the keys act on Two.
            window.setFarmShown(true)
            window.farm.focus(twoID)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.tabs.selected === two && window.farm.focusedTile?.printerID == twoID })
            let oneTile = try XCTUnwrap(window.farm.tile(id: oneID))
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(oneTile.widget, "printer.resume-print", nil)))
            XCTAssertTrue(iterateMainContext(timeout: 10) { posts(0) == [pause, resume] }, "One's tile: \(posts(0))")
            XCTAssertEqual(posts(1), [pause])
            XCTAssertEqual(Keyboard.press("ctrl+alt+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { posts(1) == [pause, resume] }, "Ctrl+Alt+R on Two's tile: \(posts(1))")
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(oneID)?.status?.state == .printing })
            oneTile.openMenu()
            XCTAssertTrue(iterateMainContext(timeout: 5) { oneTile.isMenuOpen })
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "printer-actions-tile-menu")
            Self.closeMenus(of: window.window)
            window.farm.focus(twoID)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.tabs.selected === two })

            gtk_widget_activate_action_variant(oneTile.widget, "printer.edit-printer", nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.otherWindows(than: window.window).count == 1 })
            let dialog = try XCTUnwrap(Self.otherWindows(than: window.window).first)
            let texts = descendants(of: dialog).filter { g_type_check_instance_is_a(gcast($0), gtk_editable_get_type()) != 0 }
                .map { String(cString: gtk_editable_get_text(gcast($0))) }
            XCTAssertTrue(texts.contains("One") && !texts.contains("Two"), "the dialog edits One: \(texts)")
            gtk_window_close(gcast(dialog))
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.otherWindows(than: window.window).isEmpty })

            gtk_widget_activate_action_variant(oneTile.widget, "printer.stop-print", nil)
            let question: UnsafeMutablePointer<AdwMessageDialog> = gcast(try XCTUnwrap(app.printCommands.pendingStop))
            XCTAssertEqual(String(cString: adw_message_dialog_get_body(question)), "“gear.gcode” on “One” is cancelled for good: it cannot be resumed.")
            adw_message_dialog_response(gcast(question), "confirm")
            gtk_window_close(gcast(question))  // as its button does after answering
            XCTAssertTrue(iterateMainContext(timeout: 10) { posts(0) == [pause, resume, cancel] }, "One's tile: \(posts(0))")
            XCTAssertEqual(posts(1), [pause, resume], "not the selected Two")
            window.setFarmShown(false)

            // The window's keys act on the selected tab's printer: One's second camera, its mini window.
            window.tabs.select(one)
            _ = iterateMainContext(timeout: 5) { Bool(gboolean: gtk_window_is_active(gcast(window.window))) }
            XCTAssertEqual(Keyboard.press("alt+shift+2", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { one.camera?.title == "Nozzle" }, "Alt+Shift+2 on the selected One")
            XCTAssertEqual(two.camera?.title, "Chamber")
            XCTAssertEqual(Keyboard.press("ctrl+shift+p", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.miniWindows[oneID] != nil }, "Ctrl+Shift+P")
            XCTAssertNil(app.miniWindows[twoID])
            app.miniWindows[oneID]?.close()

            // Pop out: the unselected tab's page opens its own printer's mini window.
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(two.widget, "printer.pop-out", nil)))
            let mini = try XCTUnwrap(app.miniWindows[twoID], "Two's mini window")
            XCTAssertNil(app.miniWindows[oneID])

            // Two's mini window, One selected: its menu shows Two's cameras and pauses Two.
            let menuButton = try XCTUnwrap(descendants(of: mini.window).first { String(cString: gtk_widget_get_css_name($0)) == "menubutton" })
            gtk_menu_button_popup(gcast(menuButton))
            XCTAssertTrue(iterateMainContext(timeout: 5) { mini.isMenuOpen })
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "printer-actions-mini-menu")
            XCTAssertTrue(menuLabels(gtk_menu_button_get_menu_model(gcast(menuButton))).contains("Show Nozzle"))
            gtk_widget_activate_action_variant(mini.window, "printer.show-camera-2", nil)
            XCTAssertEqual(two.camera?.title, "Nozzle", "Two's tab shows its second camera")
            XCTAssertEqual(one.camera?.title, "Nozzle", "the selected One's stays")
            gtk_widget_activate_action_variant(mini.window, "printer.pause-print", nil)
            XCTAssertTrue(iterateMainContext(timeout: 10) { posts(1) == [pause, resume, pause] }, "Two's mini window: \(posts(1))")
            XCTAssertEqual(posts(0), [pause, resume, cancel])
            mini.close()

        }
        withExtendedLifetime(windowManager) {}
    }

    /// Print Speed from a Bambu printer's tile while a Klipper printer (which has no speed
    /// profiles) is selected: the tile's printer gets it.
    func testPrintSpeedActsOnTheTilesPrinter() throws {
        let code = "16180339"
        let bambu = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial"])
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: [])
        addTeardownBlock { bambu.stop(); moonraker.stop() }
        let serial = try XCTUnwrap(bambu.waitFor("ready")?.string("serial"))
        let x1c = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "127.0.0.1", apiPort: bambu.port, serial: serial, accessCode: code)
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: [x1c, voron], selectedPrinterID: voron.id, farm: .init(shown: true, attentionFirst: false)))
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
        bambu.send(["cmd": "set", "print": ["gcode_state": "RUNNING"]])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 15) {
                app.statusHub.latest(x1c.id)?.status?.state == .printing && app.statusHub.latest(voron.id)?.status?.state == .printing
            })
            XCTAssertEqual(window.tabs.selected?.printerID, voron.id)
            XCTAssertFalse(window.isEnabled("print-speed"), "the selected Voron has no speed profiles")
            let tile = try XCTUnwrap(window.farm.tile(id: x1c.id))
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                window.tabs.page(id: x1c.id)?.printerActions?.isEnabled("print-speed") == true
            }, "the X1C's own group offers it")
            gtk_widget_activate_action_variant(tile.widget, "printer.print-speed", g_variant_new_string("sport"))
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(x1c.id)?.status?.speed == .sport }, "as the X1C reports")
            XCTAssertEqual(window.tabs.selected?.printerID, voron.id, "still the Voron selected")
            XCTAssertTrue(moonraker.events(named: "request").allSatisfy { $0.string("method") != "POST" }, "nothing sent to the Voron")
        }
    }

    /// The visible windows besides `main` (a dialog an action opened).
    @MainActor
    private static func otherWindows(than main: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        let list = gtk_window_get_toplevels()!
        return (0..<g_list_model_get_n_items(list)).compactMap { index in
            let window = GObjectRef<UnsafeMutablePointer<GtkWidget>>(adopting: gcast(g_list_model_get_item(list, index)!))
            return window.pointer != main && Bool(gboolean: gtk_widget_get_visible(window.pointer)) ? window.pointer : nil
        }
    }

    /// Closes the popovers open in `window` (a tile's menu).
    @MainActor
    private static func closeMenus(of window: UnsafeMutablePointer<GtkWidget>) {
        for widget in descendants(of: window) where Bool(gboolean: g_type_check_instance_is_a(gcast(widget), gtk_popover_get_type())) {
            gtk_popover_popdown(gcast(widget))
        }
    }
}
