import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The printer dialog as a GNOME form, used as a new user would: it opens on the first field to
/// fill in ("Edit Access Code…" on the code), real Escape and Ctrl+W presses close it, a real Enter
/// adds only a valid printer, a field says what is wrong once left (not while typed), each failed check (a real Moonraker refusing a key, a port nothing
/// listens on, a camera that does not answer) says so under its own field without moving the rows
/// below and stops saying it once that field changes, and every form fits a 360 px wide window.
final class PrinterDialogFormTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheDialogOpensOnTheFirstFieldToFillInAndEditAccessCodeOnTheCode() throws {
        let directory = try makeTemporaryDirectory()
        let x1c = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "127.0.0.1", accessCode: "12345678")
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [x1c], selectedPrinterID: x1c.id))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }

            let adding = try printerDialog(of: app)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.holdsFocus(adding.name, in: adding) }, "a new printer starts at its name")
            adding.name.text = "Voron"
            adding.selectKind(.klipper)
            XCTAssertTrue(adding.firstEmptyField === adding.host, "then the address")
            gtk_window_destroy(gcast(adding.window))

            // The button the camera's card shows when the code is rejected.
            let editAccessCode = try XCTUnwrap(window.tabs.selected?.surface!.onEditAccessCode)
            editAccessCode()
            let editing = try XCTUnwrap(app.editor.openDialog)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.holdsFocus(editing.accessCode, in: editing) },
                          "“Edit Access Code…” opens on the code")
            gtk_window_destroy(gcast(editing.window))

            let missingCode = try printerDialog(of: app, editing: Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "127.0.0.1", accessCode: ""))
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.holdsFocus(missingCode.accessCode, in: missingCode) },
                          "the first field left to fill in")
            gtk_window_destroy(gcast(missingCode.window))
        }
    }

    func testEscapeAndControlWCloseTheDialog() throws {
        let windowManager = try WindowManager()
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            for keys in ["Escape", "ctrl+w"] {
                let dialog = try printerDialog(of: app)
                let closed = Self.destroyed(dialog.window), xid = try Self.shown(dialog)
                XCTAssertEqual(Keyboard.press(keys, window: xid), 0, "xdotool \(keys)")
                XCTAssertTrue(iterateMainContext(timeout: 5, until: closed), "\(keys) closes the dialog")
                XCTAssertNil(app.editor.pendingRemoval, "\(keys) reached the dialog, not the main window")
            }
        }
        withExtendedLifetime(windowManager) {}
    }

    func testEnterAddsOnlyAValidPrinter() throws {
        let windowManager = try WindowManager()
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.selectKind(.generic)
            let closed = Self.destroyed(dialog.window), xid = try Self.shown(dialog)
            XCTAssertEqual(gtk_window_get_default_widget(gcast(dialog.window)), dialog.saveButton, "Enter is Add")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "nothing to add yet")

            dialog.name.text = "Garage"
            dialog.focus(dialog.url)
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            _ = iterateMainContext(timeout: 1) { false }
            XCTAssertFalse(closed(), "Enter adds nothing while the URL is missing")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0)

            dialog.url.text = "rtsp://127.0.0.1:\(closedLoopbackPort())/live"
            XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "a valid form can be added")
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5, until: closed), "Enter adds")
            XCTAssertEqual(window.tabs.all.map(\.name), ["Garage"])
        }
        withExtendedLifetime(windowManager) {}
    }

    func testANameAnotherPrinterHasIsWarnedAboutWithoutKeepingItFromBeingAdded() throws {
        let windowManager = try WindowManager()
        let directory = try makeTemporaryDirectory()
        let twin = Printer(name: "Twin", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(closedLoopbackPort())/a")])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [twin]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            // A printer's own name is no clash.
            let own = try printerDialog(of: app, editing: twin)
            XCTAssertNil(own.name.warningText)
            gtk_window_destroy(gcast(own.window))

            let dialog = try printerDialog(of: app)
            dialog.selectKind(.generic)
            let closed = Self.destroyed(dialog.window)
            _ = try Self.shown(dialog)
            dialog.url.text = "rtsp://127.0.0.1:\(closedLoopbackPort())/b"
            dialog.name.text = "Twin "
            XCTAssertEqual(dialog.name.warningText, "Another printer already has this name.", "said as it is typed")
            XCTAssertNil(dialog.name.errorText)
            XCTAssertFalse(Bool(gboolean: gtk_widget_has_css_class(dialog.name.entry, "error")), "not marked as wrong")
            XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "a warning does not keep it from being added")
            dialog.name.text = "Twin 2"
            XCTAssertNil(dialog.name.warningText)
            dialog.name.text = "Twin"
            dialog.save()
            XCTAssertTrue(closed(), "added all the same")
            XCTAssertEqual(window.tabs.all.map(\.name), ["Twin", "Twin"])

            // Now each one's name is the other's too.
            let editing = try printerDialog(of: app, editing: twin)
            XCTAssertEqual(editing.name.warningText, "Another printer already has this name.")
            gtk_window_destroy(gcast(editing.window))
        }
        withExtendedLifetime(windowManager) {}
    }

    func testEachCheckSaysWhatIsWrongOnItsOwnFieldUntilThatFieldChanges() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: ["--api-key", "G00dK3y"])
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.fill(.klipper, name: "Voron", host: "127.0.0.1", port: moonraker.port, code: "Wr0ngK3y")
            _ = try Self.shown(dialog)
            let below = Self.top(of: dialog.cameras.widget, in: dialog)

            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.accessCode.errorText, "Rejected — check it and try again.", "a wrong key on the key")
            XCTAssertNotEqual(gtk_widget_has_css_class(dialog.accessCode.entry, "error"), 0)
            XCTAssertEqual([dialog.name, dialog.host, dialog.apiPort].map(\.errorText), [nil, nil, nil], "and nowhere else")
            _ = iterateMainContext(timeout: 1) { false }
            XCTAssertEqual(Self.top(of: dialog.cameras.widget, in: dialog), below, "the rows below stay where they were")
            dialog.accessCode.text = "G00dK3y"
            XCTAssertNil(dialog.accessCode.errorText, "an edit of the key clears it")
            XCTAssertEqual(gtk_widget_has_css_class(dialog.accessCode.entry, "error"), 0)

            dialog.apiPort.text = "\(closedLoopbackPort())"
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.host.errorText, "Nothing answers at this address and port — check both.", "an address nobody answers at")
            XCTAssertNil(dialog.accessCode.errorText)
            dialog.apiPort.text = "\(moonraker.port)"
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertNil(dialog.host.errorText, "a check that passes clears it")
            XCTAssertEqual(dialog.cameraList.cameras.count, 1)

            dialog.selectKind(.generic)
            dialog.name.text = "Garage"
            dialog.url.text = "http://127.0.0.1:\(closedLoopbackPort())/?action=stream"
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 15) { dialog.url.errorText != nil }, dialog.testResultText)
            XCTAssertEqual(dialog.url.errorText, "Nothing answers at this URL's address and port — check them.")
            XCTAssertEqual([dialog.name, dialog.host].map(\.errorText), [nil, nil], "a camera's failure on its URL")
            XCTAssertFalse(dialog.testResultText.isEmpty)
            dialog.url.text = "http://127.0.0.1:\(moonraker.port)/?action=stream"
            XCTAssertNil(dialog.url.errorText, "an edit of the URL clears it")
        }
    }

    func testAFieldSaysWhatIsWrongOnceLeftNotWhileTyped() throws {
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            _ = try Self.shown(dialog)
            dialog.focus(dialog.accessCode)
            dialog.accessCode.text = "1234"
            XCTAssertNil(dialog.accessCode.errorText, "not while it is being typed")
            dialog.focus(dialog.serial)
            XCTAssertEqual(dialog.accessCode.errorText, "The access code has 8 characters; this one has 4.", "once left")
            XCTAssertNil(dialog.name.errorText, "a field not yet filled in says nothing")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0)
            dialog.accessCode.text = "12345678"
            XCTAssertNil(dialog.accessCode.errorText, "and follows the edits from then on")
        }
    }

    func testEveryFormFitsA360PixelWideWindow() throws {
        let directory = try makeTemporaryDirectory()
        let long = String(repeating: "very long name ", count: 12)
        let printer = Printer(name: long, kind: .klipper, host: "klipper.example.org", apiPort: 7125,
                              cameras: [PrinterCamera(name: long, url: "http://klipper.example.org/webcam/?action=stream&" + long)])
        try withPrinterDialog(in: directory, editing: printer) { app, window, dialog in
            for choice in PrinterChoice.all {
                dialog.select(choice)
                dialog.attemptedSave = true
                dialog.showProblems()  // every message shown
                var minimum: Int32 = 0
                gtk_widget_measure(adw_window_get_content(gcast(dialog.window)), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
                XCTAssertLessThanOrEqual(minimum, 360, choice.title)
            }
            gtk_window_destroy(gcast(dialog.window))
        }
    }

    // MARK: Helpers

    /// Whether the keyboard is on `field`'s row (or the text inside it).
    @MainActor
    static func holdsFocus(_ field: FormField, in dialog: PrinterDialog) -> Bool {
        guard let focus = gtk_window_get_focus(gcast(dialog.window)) else { return false }
        return focus == field.entry || gtk_widget_is_ancestor(focus, field.entry) != 0
    }

    /// Waits until the dialog is mapped and has had a moment on the main loop; its X window.
    @MainActor
    static func shown(_ dialog: PrinterDialog) throws -> UInt {
        XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(dialog.window) != 0 })
        _ = iterateMainContext(timeout: 1) { false }
        return UInt(gdk_x11_surface_get_xid(try XCTUnwrap(gtk_native_get_surface(gcast(dialog.window)))))
    }

    /// Whether `window` has been destroyed (closed) since this was called.
    @MainActor
    static func destroyed(_ window: UnsafeMutablePointer<GtkWidget>) -> () -> Bool {
        let flag = DestroyFlag()
        connectSignal(window, "destroy") { flag.isSet = true }
        return { flag.isSet }
    }

    /// Where `widget`'s top is in the dialog.
    @MainActor
    private static func top(of widget: UnsafeMutablePointer<GtkWidget>, in dialog: PrinterDialog) -> Float {
        var point = graphene_point_t()
        var origin = graphene_point_t(x: 0, y: 0)
        _ = gtk_widget_compute_point(widget, dialog.window, &origin, &point)
        return point.y
    }
}

/// Set once a window is destroyed (the test holds the dialog, so its weak reference stays set).
private final class DestroyFlag {
    var isSet = false
}
