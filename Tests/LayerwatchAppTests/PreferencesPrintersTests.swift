import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The Preferences window's Printers page against the whole app: editing (the row, its one edit
/// affordance), moving and removing a printer there reach the saved list, the tabs and the page itself.
final class PreferencesPrintersTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testEditReorderAndRemoveReachTheLibraryAndTheTabs() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240, seconds: 1)
        let bench = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        let garage = Printer(name: "Garage", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [bench, garage]))
        let windowManager = try WindowManager()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.tabs.all.count == 2 })
            app.showPreferences()
            let preferences = try XCTUnwrap(app.preferences.window).window
            @MainActor func savedNames() -> [String] {
                app.flushSaves()
                return ConfigStore(directory: directory, secrets: nil).load().config.printers.map(\.name)
            }
            @MainActor func tabNames() -> [String] { window.tabs.all.map(\.name) }
            let page = try XCTUnwrap(app.preferences.window).printers
            @MainActor func listed() -> [String] {
                page.printerRows.map { String(cString: adw_preferences_row_get_title(gcast($0.row))) }
            }
            XCTAssertEqual(listed(), ["Bench", "Garage"])
            XCTAssertEqual(page.printerRows.map { String(cString: adw_action_row_get_subtitle(gcast($0.row))) },
                           [clip.lastPathComponent, clip.lastPathComponent], "the window's subtitle")

            // One way to edit a row: activating it opens the printer dialog, where the name is too;
            // no Edit button beside it, no name entry with its own pencil.
            let benchRow = try XCTUnwrap(page.printerRows.first).row
            XCTAssertNil(PreferencesWidgets.button("Edit…", in: benchRow))
            XCTAssertFalse(descendants(of: preferences).contains { PreferencesWidgets.typeName($0) == "AdwEntryRow" }, "no name entry")
            XCTAssertTrue(Bool(gboolean: gtk_list_box_row_get_activatable(gcast(benchRow))))
            PreferencesWidgets.show(benchRow, in: preferences)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_mapped(preferences)) })
            gtk_widget_grab_focus(benchRow)
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(preferences))))
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.editor.openDialog != nil })
            let benchDialog = try XCTUnwrap(app.editor.openDialog)
            XCTAssertEqual(benchDialog.name.text, "Bench", "the dialog is on that printer")
            benchDialog.name.text = "Workbench"
            benchDialog.save()
            XCTAssertTrue(iterateMainContext(timeout: 5) { tabNames() == ["Workbench", "Garage"] }, "\(tabNames())")
            XCTAssertEqual(savedNames(), ["Workbench", "Garage"])
            XCTAssertTrue(iterateMainContext(timeout: 5) { listed() == ["Workbench", "Garage"] }, "\(listed())")

            // Move Down: the tab moves and the saved order follows.
            let first = try XCTUnwrap(page.printerRows.first).row
            XCTAssertFalse(Bool(gboolean: gtk_widget_get_sensitive(try XCTUnwrap(PreferencesWidgets.button("Move Up", in: first)))),
                           "the first can't go up")
            gtk_widget_activate(try XCTUnwrap(PreferencesWidgets.button("Move Down", in: first)))
            XCTAssertTrue(iterateMainContext(timeout: 5) { tabNames() == ["Garage", "Workbench"] }, "\(tabNames())")
            XCTAssertEqual(savedNames(), ["Garage", "Workbench"])
            XCTAssertEqual(listed(), ["Garage", "Workbench"], "the list follows")

            // Remove: asked first, over the Preferences window.
            let garageRow = try XCTUnwrap(page.printerRows.first).row
            let remove = try XCTUnwrap(PreferencesWidgets.button("Remove", in: garageRow))
            gtk_widget_activate(remove)  // a button's click comes once its pressed look has shown
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.editor.pendingRemoval != nil })
            let question = try XCTUnwrap(app.editor.pendingRemoval)
            XCTAssertEqual(String(cString: adw_message_dialog_get_heading(gcast(question))), "Remove “Garage”?")
            XCTAssertEqual(gtk_window_get_transient_for(gcast(question)), gcast(preferences))
            adw_message_dialog_response(gcast(question), "confirm")
            XCTAssertTrue(iterateMainContext(timeout: 5) { tabNames() == ["Workbench"] }, "\(tabNames())")
            XCTAssertEqual(savedNames(), ["Workbench"])
            XCTAssertEqual(listed(), ["Workbench"])
            window.close()
        }
        withExtendedLifetime(windowManager) {}
    }
}
