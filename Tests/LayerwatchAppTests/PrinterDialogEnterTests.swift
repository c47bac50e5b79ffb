import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// A grey Add says why: a real Enter while the form cannot be saved marks the first field that
/// keeps it so, with the reason, and puts the keyboard there (nothing is said while a field is
/// typed in); a key a real Moonraker rejected keeps Add grey until the key changes.
final class PrinterDialogEnterTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testEnterOnAGreyAddMarksTheFirstFieldThatKeepsItGrey() throws {
        let windowManager = try WindowManager()
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.selectKind(.bambuRTSPS(nil))
            let closed = PrinterDialogFormTests.destroyed(dialog.window), xid = try PrinterDialogFormTests.shown(dialog)
            dialog.fill(name: "X1C", host: "127.0.0.1")
            dialog.focus(dialog.accessCode)
            dialog.accessCode.text = "123"
            XCTAssertNil(dialog.accessCode.errorText, "nothing said while it is typed")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0)

            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { dialog.accessCode.errorText != nil }, "Enter says why")
            XCTAssertEqual(dialog.accessCode.errorText, "The access code has 8 characters; this one has 3.")
            XCTAssertNotEqual(gtk_widget_has_css_class(dialog.accessCode.entry, "error"), 0, "and marks the field")
            XCTAssertTrue(PrinterDialogFormTests.holdsFocus(dialog.accessCode, in: dialog))
            XCTAssertEqual([dialog.name, dialog.host, dialog.serial].map(\.errorText), [nil, nil, nil])
            XCTAssertFalse(closed())
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-enter-access-code")

            // The first field that keeps it grey, and only that one.
            dialog.name.text = ""
            dialog.focus(dialog.serial)
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { PrinterDialogFormTests.holdsFocus(dialog.name, in: dialog) }, "on the name")
            XCTAssertEqual(dialog.name.errorText, "Enter a name for this printer, for example “X1C workshop”.")

            dialog.name.text = "X1C"
            dialog.accessCode.text = "12345678"
            XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.saveButton), 0)
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5, until: closed), "a valid form is added on Enter")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testARejectedKeyKeepsAddGreyUntilTheKeyChanges() throws {
        let windowManager = try WindowManager()
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: ["--api-key", "G00dK3y"])
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.fill(.klipper, name: "Voron", host: "127.0.0.1", port: moonraker.port, code: "Wr0ngK3y")
            dialog.camerasEdited(.add)
            dialog.url.text = "http://127.0.0.1:\(closedLoopbackPort())/?action=stream"
            let closed = PrinterDialogFormTests.destroyed(dialog.window), xid = try PrinterDialogFormTests.shown(dialog)
            XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "valid as typed")

            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.accessCode.errorText, "Rejected — check it and try again.")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "a rejected key is not offered to be added")
            dialog.focus(dialog.name)
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { PrinterDialogFormTests.holdsFocus(dialog.accessCode, in: dialog) },
                          "Enter goes to the rejected key")
            XCTAssertFalse(closed())
            dialog.save()
            XCTAssertFalse(closed(), "nor saved")

            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "still rejected")
            XCTAssertEqual(dialog.accessCode.errorText, "Rejected — check it and try again.")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-rejected-key")

            dialog.accessCode.text = "G00dK3y"
            XCTAssertNil(dialog.accessCode.errorText)
            XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "a changed key can be added")
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5, until: closed))
            XCTAssertEqual(window.tabs.all.map(\.name), ["Voron"])
        }
        withExtendedLifetime(windowManager) {}
    }
}
