import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// Closing a tab is not removing a printer: the tab's close button and Ctrl+W close the tab without
/// a question, the printer stays saved, in the farm view and watched (a real Moonraker peer keeps
/// being polled), the Printers menu opens it again where it was, and the closed tabs are remembered
/// across a restart; with every tab closed the window says so rather than welcoming a first start.
final class ClosedTabTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testClosingATabKeepsThePrinterAndThePrintersMenuReopensItWhereItWas() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock { moonraker.stop() }
        let directory = try makeTemporaryDirectory()
        let one = Printer(name: "One", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        let two = Printer(name: "Two", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port, cameras: [PrinterCamera(url: clip.path)])
        let three = Printer(name: "Three", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [one, two, three], selectedPrinterID: two.id))
        try MainActor.assumeIsolated {
            var (app, window) = try startApp(in: directory)
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 })
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(two.id)?.status != nil }, "Two's status comes")
            @MainActor func openTabs() -> [String] { window.tabs.open.map { $0.name } }
            @MainActor func saved() -> AppConfig {
                app.flushSaves()
                return ConfigStore(directory: directory, secrets: nil).load().config
            }

            // The close button of Two's tab (the selected one) closes it, asking nothing.
            XCTAssertEqual(window.tabs.selected?.name, "Two")
            let close = try XCTUnwrap(Self.closeButton(ofTab: "Two", in: window.tabs.bar), "the tab's close button")
            gtk_widget_activate(close)
            XCTAssertTrue(iterateMainContext(timeout: 5) { openTabs() == ["One", "Three"] }, "\(openTabs())")
            XCTAssertNil(app.editor.pendingRemoval, "no question")
            XCTAssertEqual(Self.windows(of: app).count, 1, "no dialog: only the main window")
            XCTAssertEqual(window.tabs.all.map(\.name), ["One", "Two", "Three"], "the page stays, in its place")
            XCTAssertEqual(saved().printers.map(\.name), ["One", "Two", "Three"], "the printer stays saved")
            XCTAssertEqual(saved().closedTabs, [two.id], "its tab is remembered closed")
            XCTAssertNotNil(window.farm.tile(id: two.id), "the farm still shows it")
            XCTAssertNotNil(app.statusHub.endpoint(of: two.id), "its status connection runs on")
            let polled = moonraker.events(named: "request").count
            XCTAssertTrue(iterateMainContext(timeout: 10) { moonraker.events(named: "request").count >= polled + 2 }, "and keeps polling")

            // The Printers menu lists every saved printer, Two unchecked; choosing it opens its tab again where it was.
            XCTAssertEqual(gtk_widget_get_visible(window.printersMenu.button), 1)
            XCTAssertEqual(Self.menuLabels(window.printersMenu.button), ["One", "Two", "Three", "Reopen All Tabs"])
            XCTAssertEqual(window.printersMenu.entries.map(\.open), [true, false, true])
            gtk_menu_button_popup(gcast(window.printersMenu.button))
            let popover = try XCTUnwrap(gtk_menu_button_get_popover(gcast(window.printersMenu.button)))
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(gcast(popover)) != 0 })
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("printers-menu")
            let shown = descendants(of: gcast(popover)).compactMap { widget -> String? in
                String(cString: gtk_widget_get_css_name(widget)) == "label" && gtk_widget_get_mapped(widget) != 0
                    ? String(cString: gtk_label_get_text(gcast(widget))) : nil
            }
            XCTAssertEqual(shown, ["One", "Two", "Three", "Reopen All Tabs"], "the open menu")
            let item = try XCTUnwrap(descendants(of: gcast(popover)).first { widget in
                PreferencesWidgets.typeName(widget) == "GtkModelButton" && descendants(of: widget).contains { label in
                    String(cString: gtk_widget_get_css_name(label)) == "label" && String(cString: gtk_label_get_text(gcast(label))) == "Two"
                }
            }, "Two's item")
            gtk_widget_activate(item)
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(gcast(popover)) == 0 }, "the menu closes")
            XCTAssertEqual(openTabs(), ["One", "Two", "Three"], "back at its place")
            XCTAssertEqual(window.tabs.selected?.name, "Two", "and selected")
            XCTAssertEqual(saved().closedTabs, [])
            XCTAssertEqual(window.printersMenu.entries.map(\.open), [true, true, true])

            // Ctrl+W closes the selected tab the same way.
            XCTAssertTrue(window.isEnabled("close-tab"))
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertEqual(Keyboard.press("ctrl+w", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { openTabs() == ["One", "Three"] }, "\(openTabs())")
            XCTAssertNil(app.editor.pendingRemoval, "Ctrl+W asks nothing either")
            XCTAssertEqual(saved().printers.count, 3)

            // Closed tabs stay closed after a restart; the printer is still there.
            gtk_window_destroy(gcast(window.window))
            (app, window) = try startApp(in: directory)
            defer { window.close() }
            XCTAssertEqual(openTabs(), ["One", "Three"], "Two's tab is still closed")
            XCTAssertEqual(window.tabs.all.map(\.name), ["One", "Two", "Three"])
            XCTAssertNotNil(window.farm.tile(id: two.id))
            XCTAssertEqual(window.printersMenu.entries.map(\.open), [true, false, true])

            // With every tab closed the window says so, not the first start's welcome; its button reopens them.
            for page in window.tabs.open { app.editor.closeTab(page) }
            XCTAssertTrue(window.tabs.open.isEmpty)
            XCTAssertTrue(window.isClosedTabsPageShown, "the closed tabs' page")
            XCTAssertFalse(window.isWelcomeShown, "not the welcome")
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 })
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("all-tabs-closed")
            let reopen = try XCTUnwrap(descendants(of: window.window).first { widget in
                PreferencesWidgets.typeName(widget) == "GtkButton" && gtk_widget_get_mapped(widget) != 0
                    && gtk_actionable_get_action_name(gcast(widget)).map { String(cString: $0) } == PrintersMenu.reopenAllAction
            }, "Reopen All Tabs shows")
            gtk_widget_activate(reopen)
            XCTAssertTrue(iterateMainContext(timeout: 5) { openTabs() == ["One", "Two", "Three"] }, "\(openTabs())")
            XCTAssertFalse(window.isClosedTabsPageShown)
            XCTAssertEqual(saved().closedTabs, [])
        }
        withExtendedLifetime(windowManager) {}
    }

    func testAClosedTabsFarmTileOpensItAgain() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let printers = ["One", "Two"].map { Printer(name: $0, kind: .generic, cameras: [PrinterCamera(url: clip.path)]) }
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: printers, closedTabs: [printers[0].id]))
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { window.close() }
            XCTAssertEqual(window.tabs.open.map(\.name), ["Two"])
            window.showFarm(true)
            let tile = try XCTUnwrap(window.farm.tile(id: printers[0].id), "a closed tab's printer has its tile")
            tile.onActivate()
            XCTAssertFalse(window.isFarmShown, "the tile brings up its tab")
            XCTAssertEqual(window.tabs.open.map(\.name), ["One", "Two"], "opened again at its place")
            XCTAssertEqual(window.tabs.selected?.name, "One")
        }
    }

    func testTheRemovalQuestionNamesOnlyWhatThePrinterHolds() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let camera = Printer(name: "Enclosure cam", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [camera]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { window.close() }
            // Edit Printer's Remove Printer… asks, over the dialog.
            gtk_widget_activate_action_variant(window.window, "printer.edit-printer", nil)
            let dialog = try XCTUnwrap(app.editor.openDialog)
            let removeButton = try XCTUnwrap(dialog.removeButton, "Edit Printer offers Remove Printer…")
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(removeButton) != 0 })
            gtk_window_set_default_size(gcast(dialog.window), 520, 1150)  // the whole form in the picture
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("edit-printer-remove")
            gtk_widget_activate(removeButton)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.editor.pendingRemoval != nil })
            let question = try XCTUnwrap(app.editor.pendingRemoval)
            XCTAssertEqual(String(cString: adw_message_dialog_get_heading(gcast(question))), "Remove “Enclosure cam”?")
            let body = String(cString: adw_message_dialog_get_body(gcast(question)))
            XCTAssertEqual(body, "Its settings will be deleted from this computer.")
            XCTAssertFalse(body.contains("access code"), "a camera without a code is not told its code goes")
            XCTAssertEqual(gtk_window_get_transient_for(gcast(question)), gcast(dialog.window))
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("remove-question")
            adw_message_dialog_response(gcast(question), "confirm")
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.windows(of: app).count == 1 }, "the dialog closes with it")
            XCTAssertTrue(window.tabs.all.isEmpty)
            XCTAssertNil(app.library.printer(id: camera.id))

            // Printers that hold secrets are told which.
            let bambu = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "192.0.2.1", accessCode: "12345678")
            XCTAssertEqual(RemovalText.body(for: bambu), "Its settings and access code will be deleted from this computer.")
            let klipper = Printer(name: "Voron", kind: .klipper, host: "192.0.2.2", accessCode: "KEY",
                                  cameras: [PrinterCamera(url: "rtsp://user:secret@192.0.2.2/cam"), PrinterCamera(url: "http://192.0.2.2/webcam")])
            XCTAssertEqual(RemovalText.body(for: klipper), "Its settings, API key and camera password will be deleted from this computer.")
            let logins = Printer(name: "Door", kind: .generic, cameras: [PrinterCamera(url: "rtsp://user:secret@192.0.2.3/a"),
                                                                          PrinterCamera(url: "rtsp://user:secret@192.0.2.3/b")])
            XCTAssertEqual(RemovalText.body(for: logins), "Its settings and camera passwords will be deleted from this computer.")
        }
    }

    /// The close button of the tab titled `title` in the tab bar.
    @MainActor
    static func closeButton(ofTab title: String, in bar: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        let tab = descendants(of: bar).first { widget in
            String(cString: gtk_widget_get_css_name(widget)) == "tab" && descendants(of: widget).contains { label in
                String(cString: gtk_widget_get_css_name(label)) == "label" && String(cString: gtk_label_get_text(gcast(label))) == title
            }
        }
        return tab.flatMap { descendants(of: $0).first { gtk_widget_has_css_class($0, "tab-close-button") != 0 } }
    }

    /// The labels of a menu button's items, sections flattened.
    @MainActor
    static func menuLabels(_ button: UnsafeMutablePointer<GtkWidget>) -> [String] {
        guard let menu = gtk_menu_button_get_menu_model(gcast(button)) else { return [] }
        return (0..<g_menu_model_get_n_items(menu)).flatMap { section -> [String] in
            guard let part = g_menu_model_get_item_link(menu, section, "section") else { return [] }
            defer { g_object_unref(UnsafeMutableRawPointer(part)) }
            return (0..<g_menu_model_get_n_items(part)).compactMap { index in
                guard let value = g_menu_model_get_item_attribute_value(part, index, "label", nil) else { return nil }
                defer { g_variant_unref(value) }
                return String(cString: g_variant_get_string(value, nil))
            }
        }
    }

    /// The application's windows.
    @MainActor
    static func windows(of app: LayerwatchApplication) -> [UnsafeMutableRawPointer] {
        var windows: [UnsafeMutableRawPointer] = []
        var link = gtk_application_get_windows(gcast(app.application))
        while let current = link {
            if let window = current.pointee.data { windows.append(window) }
            link = current.pointee.next
        }
        return windows
    }
}

/// Saves the X screen as a PNG in the temporary directory (`import` from ImageMagick), to look at.
enum Screen {
    static func save(_ name: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/import")
        process.arguments = ["-window", "root", "/tmp/layerwatch-\(name).png"]
        try? process.run()
        process.waitUntilExit()
    }
}
