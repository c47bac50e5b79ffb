import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// Printer names that look like Pango markup, or go on for 500 characters, from the network (a
/// discovered printer) or the user (a saved printer): shown as written, on one line, with no GTK
/// warning, in the dialog's list, toasts, the removal question and the titles.
final class HostileNameTests: XCTestCase {
    private static let markupName = #"<span size="50000">Big</span> <b>x</b> & < >"#
    /// Valid markup: as markup it would be a line 50 points high.
    private static let hugeName = #"<span size="50000">Huge</span> <b>bold</b>"#
    private static let longName = String(String(repeating: "Very long printer name ", count: 25).prefix(500))

    override func setUp() {
        AppTestEnvironment.prepare()
        GLibWarningLog.install()
    }

    func testDiscoveredNamesAreShownAsPlainTextOnOneLine() throws {
        XCTAssertEqual(Self.longName.count, 500)
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            let port = try discoveryPort(of: app, closing: dialog)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            let mark = GLibWarningLog.mark
            let names = ["01P00A000000001": "Garage P1S", "01P00A000000002": Self.markupName, "01P00A000000003": Self.longName,
                         "01P00A000000004": Self.hugeName]
            let sender = LoopbackSender()
            for (serial, name) in names {
                sender.send(SSDPAnnouncement.bytes(serial: serial, name: name), to: port)
            }
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                dialog.discoveredPrinters.count == names.count
                    && names.keys.allSatisfy { dialog.discovered.row(serial: $0).map { gtk_widget_get_height($0) > 0 } ?? false }
            }, "the printers are listed and laid out")
            // A changed announcement rebuilds the odd rows' text.
            for (serial, name) in names where serial != "01P00A000000001" {
                sender.send(SSDPAnnouncement.bytes(serial: serial, name: name, model: "N2S"), to: port)
            }
            XCTAssertTrue(iterateMainContext(timeout: 5) { dialog.discoveredPrinters.allSatisfy { $0.modelCode == "N2S" || $0.name == "Garage P1S" } })
            _ = iterateMainContext(timeout: 1) { false } // let it lay out and draw

            let normal = try XCTUnwrap(dialog.discovered.row(serial: "01P00A000000001"))
            let normalHeight = gtk_widget_get_height(normal)
            XCTAssertGreaterThan(normalHeight, 0)
            let normalNatural = naturalHeight(of: normal)
            for (serial, name) in names {
                let row = try XCTUnwrap(dialog.discovered.row(serial: serial))
                XCTAssertEqual(gtk_widget_get_height(row), normalHeight, "\(name.prefix(20))… is as tall as a normal row")
                XCTAssertLessThanOrEqual(abs(naturalHeight(of: row) - normalNatural), 2, "and wants no more room at its width")
                let title = try XCTUnwrap(titleLabel(of: row))
                XCTAssertEqual(String(cString: gtk_label_get_text(gcast(title))), name, "the title shows the name as written")
                XCTAssertLessThanOrEqual(gtk_widget_get_width(row), gtk_widget_get_width(dialog.discovered.widget))
            }
            XCTAssertEqual(GLibWarningLog.messages(since: mark), [], "no GTK warning or critical")
        }
    }

    func testToastsTheRemovalQuestionAndTitlesShowTheNameAsWritten() throws {
        let clip = try TestClips.smpteBars(width: 160, height: 120, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let pictures = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.snapshotFolder = pictures
            let mark = GLibWarningLog.mark
            app.editor.save(Printer(name: Self.markupName, kind: .generic, cameras: [PrinterCamera(url: clip.path)]))
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live })

            window.activate("camera.snapshot")
            XCTAssertTrue(iterateMainContext(timeout: 10) { !toastTitles(in: window.window).isEmpty }, "a toast says where it went")
            let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: pictures.path).first)
            XCTAssertTrue(file.contains("&"), file)
            XCTAssertEqual(toastTitles(in: window.window), ["Saved “\(file)” in \(SavedFiles.shownName(of: pictures))"], "the file name as written")

            let tab = try XCTUnwrap(adw_tab_view_get_selected_page(gcast(window.tabs.view)))
            XCTAssertEqual(String(cString: adw_tab_page_get_title(tab)), Self.markupName)
            XCTAssertEqual(String(cString: gtk_window_get_title(gcast(window.window))), "\(Self.markupName) — Layerwatch")

            app.editor.confirmRemoval(of: try XCTUnwrap(app.library.printer(id: page.printerID)), over: window.window)
            let question: UnsafeMutablePointer<AdwMessageDialog> = gcast(try XCTUnwrap(app.editor.pendingRemoval))
            XCTAssertFalse(Bool(gboolean: adw_message_dialog_get_heading_use_markup(question)))
            let heading = "Remove “\(Self.markupName)”?"
            XCTAssertEqual(String(cString: adw_message_dialog_get_heading(question)), heading)
            let shown = descendants(of: gcast(question)).filter { String(cString: gtk_widget_get_css_name($0)) == "label" }
                .map { String(cString: gtk_label_get_text(gcast($0))) }
            XCTAssertTrue(shown.contains(heading), "\(shown)")
            adw_message_dialog_response(question, "cancel")
            XCTAssertEqual(GLibWarningLog.messages(since: mark), [], "no GTK warning or critical")
        }
    }

    func testAToastShowsAnyTextAsWritten() throws {
        MainActor.assumeIsolated {
            let window = gtk_window_new()!
            defer { gtk_window_destroy(gcast(window)) }
            let overlay = adw_toast_overlay_new()!
            gtk_window_set_child(gcast(window), overlay)
            gtk_window_present(gcast(window))
            let mark = GLibWarningLog.mark
            WindowChores.toast(Self.markupName, in: overlay, seconds: 4)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !toastTitles(in: window).isEmpty })
            XCTAssertEqual(toastTitles(in: window), [Self.markupName])
            XCTAssertEqual(GLibWarningLog.messages(since: mark), [])
        }
    }

}

/// The height `widget` asks for at its allocated width.
@MainActor
private func naturalHeight(of widget: UnsafeMutablePointer<GtkWidget>) -> Int32 {
    var minimum: Int32 = 0, natural: Int32 = 0
    gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width(widget), &minimum, &natural, nil, nil)
    return natural
}
