import CGtk
import Foundation
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
        try withPrinterDialog(in: directory) { app, window, dialog in
            let port = try discoveryPort(of: app, closing: dialog)
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
            XCTAssertEqual(looking, "Bambu Lab printers on this network announce themselves every few seconds. Elegoo, Flashforge and Prusa "
                               + "printers on this network are asked every few seconds. You can also add one by its address.",
                           "how each registered family is found, the families listed as a sentence lists them")
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

    func testAPortHeldByAnotherProgramIsSaidAndNothingPretendsToLook() throws {
        // A socket holding a loopback port without sharing it, as a program that does not allow reuse.
        // Close-on-exec: a server a test starts meanwhile must not inherit the port and keep it held.
        var holder = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { if holder >= 0 { close(holder) } }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) == 0 && getsockname(holder, $0, &length) == 0 }
        }
        XCTAssertTrue(bound)
        let held = UInt16(bigEndian: address.sin_port)
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            // Nothing to ask either: a listener that can ask still looks.
            let app = LayerwatchApplication(store: { ConfigStore(directory: directory, secrets: nil) },
                                            id: "io.github.layerwatch.Test\(UInt32.random(in: 0...UInt32.max))",
                                            discovery: PrinterDiscovery.Configuration(bindAddress: "127.0.0.1", endpoints: [.init(port: held)], asks: []),
                                            stateDirectory: directory.appendingPathComponent("state"))
            app.registerWithoutRunning()
            app.activate()
            let window = try XCTUnwrap(app.window)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isWelcomeShown })
            guard case .failed(let failures)? = app.editor.discovery?.state else {
                return XCTFail("the port is held: \(String(describing: app.editor.discovery?.state))")
            }
            XCTAssertEqual(failures.map(\.code), [EADDRINUSE])
            let dialog = try printerDialog(of: app)
            var dialogOpen = true
            defer { if dialogOpen { gtk_window_destroy(gcast(dialog.window)) } }
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(dialog.window) != 0 })
            _ = iterateMainContext(timeout: 1) { false }
            for list in [dialog.discovered, window.welcome.discovered] {
                let texts = labelTexts(in: list.widget)
                XCTAssertTrue(texts.contains("Cannot look for printers"), "\(texts)")
                XCTAssertTrue(texts.contains { $0.contains("Another program") && $0.contains("by its address") }, "\(texts)")
                XCTAssertFalse(texts.contains { $0.hasPrefix("Looking for") }, "\(texts)")
                XCTAssertFalse(spinnerTurning(in: list.widget), "no spinner pretends to look")
            }
            ScreenCapture.saveIfAsked(as: "discovery-cannot-listen")

            // The port freed, the welcome page shown again listens and looks again.
            gtk_window_destroy(gcast(dialog.window))
            dialogOpen = false
            close(holder)
            holder = -1
            gtk_widget_activate_action_variant(window.window, Feature.showDemo.actionName, nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !window.isWelcomeShown })
            app.closeSelectedTab()
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isWelcomeShown })
            guard case .listening? = app.editor.discovery?.state else {
                return XCTFail("listening again: \(String(describing: app.editor.discovery?.state))")
            }
            let list = window.welcome.discovered
            XCTAssertTrue(iterateMainContext(timeout: 5) { spinnerTurning(in: list.widget) }, "the spinner turns again")
            XCTAssertTrue(labelTexts(in: list.widget).contains("Looking for printers…"), "\(labelTexts(in: list.widget))")
            XCTAssertFalse(labelTexts(in: list.widget).contains("Cannot look for printers"))
        }
    }
}

/// The text of every label in `widget`.
@MainActor
func labelTexts(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
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
