import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The Preferences window's Printers page against the whole app: renaming, moving, editing and
/// removing a printer there reach the saved list, the tabs and the page itself.
final class PreferencesPrintersTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testRenameReorderEditAndRemoveReachTheLibraryAndTheTabs() throws {
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
            @MainActor func listed() -> [String] {
                PreferencesWidgets.rows(titled: "Name", in: preferences).map { String(cString: gtk_editable_get_text(gcast($0))) }
            }
            XCTAssertEqual(listed(), ["Bench", "Garage"])

            // Rename in place: the name typed, then Enter.
            let benchRow = try XCTUnwrap(PreferencesWidgets.rows(titled: "Name", in: preferences).first)
            PreferencesWidgets.show(benchRow, in: preferences)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_mapped(preferences)) })
            gtk_widget_grab_focus(benchRow)
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(preferences))))
            XCTAssertEqual(Keyboard.press("Home", window: xid), 0)
            for key in ["W", "o", "r", "k", "Delete", "b", "Return"] { XCTAssertEqual(Keyboard.press(key, window: xid), 0) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { tabNames() == ["Workbench", "Garage"] }, "\(tabNames())")
            XCTAssertEqual(savedNames(), ["Workbench", "Garage"])
            XCTAssertEqual(listed(), ["Workbench", "Garage"])

            // Move Down: the tab moves and the saved order follows.
            let first = try XCTUnwrap(PreferencesWidgets.rows(titled: "Name", in: preferences).first)
            XCTAssertFalse(Bool(gboolean: gtk_widget_get_sensitive(try XCTUnwrap(PreferencesWidgets.button("Move Up", in: first)))),
                           "the first can't go up")
            gtk_widget_activate(try XCTUnwrap(PreferencesWidgets.button("Move Down", in: first)))
            XCTAssertTrue(iterateMainContext(timeout: 5) { tabNames() == ["Garage", "Workbench"] }, "\(tabNames())")
            XCTAssertEqual(savedNames(), ["Garage", "Workbench"])
            XCTAssertEqual(listed(), ["Garage", "Workbench"], "the list follows")

            // Edit…: the printer dialog, on that printer.
            let garageRow = try XCTUnwrap(PreferencesWidgets.rows(titled: "Name", in: preferences).first)
            let edit = try XCTUnwrap(PreferencesWidgets.button("Edit…", in: garageRow))
            gtk_widget_activate(edit)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.editor.openDialog != nil })
            let dialog = try XCTUnwrap(app.editor.openDialog)
            gtk_window_destroy(gcast(dialog.window))

            // Remove: asked first, over the Preferences window.
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
