import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// The first start: no saved printer shows the welcome page (never a blank window, never a demo
/// nobody asked for), whose buttons add a printer or open the demo printer; the demo says DEMO,
/// never LIVE, and shows a simulated print in its strip, the farm and its print controls; closing
/// the last tab brings the welcome page back.
final class WelcomeTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    @MainActor
    private func button(_ label: String, in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        descendants(of: widget).first { String(cString: gtk_widget_get_css_name($0)) == "button" && gtk_button_get_label(gcast($0)).map { String(cString: $0) } == label }
    }

    func testTheWelcomePageOffersAddingAPrinterAndTheDemoWithASimulatedPrint() throws {
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isWelcomeShown }, "no printer: the welcome page")
            XCTAssertTrue(window.tabs.all.isEmpty, "no demo nobody asked for")
            let description = String(cString: adw_status_page_get_description(gcast(window.welcome.widget)))
            for family in ["Bambu Lab", "Klipper (Moonraker)", "OctoPrint", "Creality", "any camera by its address"] {
                XCTAssertTrue(description.contains(family), "the welcome page names \(family): \(description)")
            }
            let add = try XCTUnwrap(button("Add Printer…", in: window.window))
            XCTAssertTrue(Bool(gboolean: gtk_widget_has_css_class(add, "suggested-action")), "Add Printer is the suggested action")
            XCTAssertEqual(gtk_actionable_get_action_name(gcast(add)).map { String(cString: $0) }, "win.add-printer")

            let demo = try XCTUnwrap(button("Try the Demo Printer", in: window.window))
            _ = gtk_widget_activate(demo)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !window.isWelcomeShown })
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(page.camera!.isDemo)
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.surface!.isLiveBadgeShown }, "the clip plays")
            XCTAssertEqual(page.surface!.liveBadgeText, "DEMO", "a recording is never called LIVE")

            // The simulated print: the strip, the tab's title and the print controls follow it.
            let strip = page.status.strip
            XCTAssertTrue(iterateMainContext(timeout: 5) { strip.stateText == "Printing" }, "\(String(describing: strip.stateText))")
            XCTAssertEqual(strip.jobText, "Demo_Benchy_0.2mm_PLA.3mf")
            XCTAssertNotNil(strip.layersText?.range(of: #"^layer \d+ of 240$"#, options: .regularExpression), "\(String(describing: strip.layersText))")
            XCTAssertTrue(window.isEnabled("pause-print"))
            gtk_widget_activate_action_variant(window.window, "printer.pause-print", nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { strip.stateText == "Paused" }, "the demo obeys pause")
            XCTAssertTrue(window.isEnabled("resume-print"))

            // Closing the last tab brings the welcome page back.
            app.closeSelectedTab()
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isWelcomeShown && window.tabs.all.isEmpty })
            XCTAssertNil(app.statusHub.latest(page.printerID), "the simulated print stops with its tab")
            app.flushSaves()
        }
    }

    func testTheWelcomePageListsThePrintersOnTheNetworkAndAPickFillsAddPrinter() throws {
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isWelcomeShown })
            guard case .listening(let ports, _)? = app.editor.discovery?.state, let port = ports.first else {
                return XCTFail("the welcome page listens: \(String(describing: app.editor.discovery?.state))")
            }
            LoopbackSender().send(SSDPAnnouncement.bytes(serial: "01P00A123456780", name: "Attic P1S", location: "192.168.1.45"), to: port)
            let list = window.welcome.discovered
            XCTAssertTrue(iterateMainContext(timeout: 5) { list.printers.map(\.serial) == ["01P00A123456780"] })
            list.onPick(list.printers[0])
            let dialog = try XCTUnwrap(app.editor.openDialog, "a pick opens Add Printer")
            defer { gtk_window_destroy(gcast(dialog.window)) }
            XCTAssertEqual(dialog.serial.text, "01P00A123456780")
            XCTAssertEqual(dialog.name.text, "Attic P1S")
        }
    }
}
