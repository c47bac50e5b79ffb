import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// "On your network" while no printer has announced itself: a Bambu printer announces only now
/// and then, so the list keeps looking (its spinner turning) as long as it shows and never says
/// none was found; after a quiet while it says none has announced itself yet. Announcements go to
/// the app's loopback port only.
final class DiscoveryPatienceTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAPrinterAnnouncingAfterTwelveSecondsAppearsAndNothingSaidNoneWasFound() throws {
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let (dialog, port) = try openAddPrinterDialog(in: app)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(dialog.window) != 0 })
            let list = dialog.discovered
            let opened = ProcessInfo.processInfo.systemUptime
            var said: Set<String> = [], stillLooking = true
            _ = iterateMainContext(timeout: 20) {
                said.formUnion(labelTexts(in: list.widget))
                stillLooking = stillLooking && spinnerTurning(in: list.widget)
                return ProcessInfo.processInfo.systemUptime - opened >= 15
            }
            ScreenCapture.saveIfAsked(as: "discovery-15s")
            XCTAssertTrue(stillLooking, "the spinner turned all along")
            XCTAssertFalse(said.contains { $0.lowercased().contains("none found") || $0.hasPrefix("No printer") }, "\(said)")
            XCTAssertTrue(said.contains { $0.contains("announce themselves") }, "it says how printers are found: \(said)")

            LoopbackSender().send(SSDPAnnouncement.bytes(serial: "00M09A350100321", name: "Workshop X1C", model: "BL-P001"), to: port)
            XCTAssertTrue(iterateMainContext(timeout: 5) { list.row(serial: "00M09A350100321") != nil }, "the late printer is listed")
            let row = try XCTUnwrap(list.row(serial: "00M09A350100321"))
            XCTAssertEqual(titleLabel(of: row).map { String(cString: gtk_label_get_text(gcast($0))) }, "Workshop X1C")
            XCTAssertFalse(spinnerTurning(in: list.widget), "the searching row made way for it")
        }
    }

    func testAfterAQuietWhileItSaysNoPrinterHasAnnouncedItselfYetAndKeepsLooking() throws {
        try MainActor.assumeIsolated {
            let list = DiscoveredPrinterList(quietSeconds: 1)
            let window = gtk_window_new()!
            defer { gtk_window_destroy(gcast(window)) }
            gtk_window_set_default_size(gcast(window), 420, 200)
            gtk_window_set_child(gcast(window), list.widget)
            gtk_window_present(gcast(window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { spinnerTurning(in: list.widget) })
            let looking = list.searchingText
            XCTAssertTrue(iterateMainContext(timeout: 4) { list.searchingText != looking }, "after the quiet while: \(looking)")
            XCTAssertTrue(list.searchingText.hasPrefix("No printer has announced itself yet"), list.searchingText)
            XCTAssertTrue(spinnerTurning(in: list.widget), "and it keeps looking")
            _ = iterateMainContext(timeout: 1) { false }  // drawn
            ScreenCapture.saveIfAsked(as: "discovery-quiet")

            let printer = DiscoveredPrinter(serial: "01P00A123456789", address: "127.0.0.1", modelCode: "C12", name: "Garage")
            list.show([printer])
            XCTAssertNotNil(list.row(serial: printer.serial), "a printer heard late is listed")
            list.show([])
            _ = iterateMainContext(timeout: 2) { false }
            XCTAssertEqual(list.searchingText, looking, "once one was heard it never says none has")
        }
    }
}

/// The text of every label in `widget`.
@MainActor
private func labelTexts(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
    descendants(of: widget).filter { String(cString: gtk_widget_get_css_name($0)) == "label" }
        .map { String(cString: gtk_label_get_text(gcast($0))) }
}

/// Whether a spinner on screen in `widget` turns.
@MainActor
private func spinnerTurning(in widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
    descendants(of: widget).contains { child in
        String(cString: gtk_widget_get_css_name(child)) == "spinner" && gtk_widget_get_mapped(child) != 0
            && Bool(gboolean: gtk_spinner_get_spinning(gcast(child)))
    }
}
