import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// The Add Printer dialog's "On your network" with discovery that asks: the asks go out when the
/// welcome page shows, at once when the dialog opens over it, and again every `askInterval` (to a fake Elegoo on 127.0.0.1,
/// never a LAN, broadcast or multicast address); the finds of registered families are offered (the
/// Elegoo family declares its discovery); a Bambu find's row fills the form in, and so does an
/// Elegoo find's.
final class DiscoveryAskDialogTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAsksWhenTheDialogOpensAndAgainAndOffersOnlyRegisteredFamilies() throws {
        let elegoo = try XCTUnwrap(LoopbackResponder { ask in
            ask == Array("M99999".utf8) ? [DiscoveryAnswers.elegoo(name: "Bay 3")] : nil
        })
        defer { elegoo.stop() }
        let configuration = PrinterDiscovery.Configuration(
            bindAddress: "127.0.0.1", endpoints: [.init(port: 0)],
            asks: [DiscoveryAsk(payload: Array("M99999".utf8), port: elegoo.port, address: "255.255.255.255")],
            askAddress: "127.0.0.1", askInterval: 3)
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: ConfigStore(directory: directory, secrets: nil), discovery: configuration)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 2) { elegoo.asks.count == 1 }, "the welcome page asks as it shows")
            let dialog = try printerDialog(of: app)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 1) { elegoo.asks.count == 2 }, "asked at once as the dialog opens, not 3 s later")
            XCTAssertTrue(iterateMainContext(timeout: 5) { elegoo.asks.count == 3 }, "and again after the interval")

            let port = try discoveryPort(of: app, closing: dialog)
            LoopbackSender().send(SSDPAnnouncement.bytes(serial: "01P00A123456789", name: "<b>Garage</b> P1S"), to: port)
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                Set(app.editor.discovery?.printers.map(\.family) ?? []) == ["bambu", "elegoo"]
            }, "the Elegoo answer is read: \(String(describing: app.editor.discovery?.printers))")
            XCTAssertTrue(iterateMainContext(timeout: 2) { Set(dialog.discoveredPrinters.map(\.identifier)) == ["01P00A123456789", "000000000001a7c3"] },
                          "both are offered: \(dialog.discoveredPrinters.map(\.identifier))")
            let row = try XCTUnwrap(dialog.discovered.row(serial: "01P00A123456789"))
            XCTAssertEqual(titleLabel(of: row).map { String(cString: gtk_label_get_text(gcast($0))) }, "<b>Garage</b> P1S", "a name is text, not markup")
            XCTAssertTrue(labelTexts(in: dialog.discovered.widget).contains("P1S · 127.0.0.1 · LAN mode"), "\(labelTexts(in: dialog.discovered.widget))")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "discovery-dialog-asks")

            adw_action_row_activate(gcast(row))
            XCTAssertEqual(dialog.host.text, "127.0.0.1")
            XCTAssertEqual(dialog.serial.text, "01P00A123456789")
            XCTAssertEqual(dialog.name.text, "<b>Garage</b> P1S")
            XCTAssertEqual(dialog.draft.kind, .bambuJPEG(.p1s), "its kind from the registry")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "discovery-dialog-prefilled")

            let centauri = try XCTUnwrap(dialog.discovered.row(serial: "000000000001a7c3"))
            adw_action_row_activate(gcast(centauri))
            XCTAssertEqual(dialog.draft.kind, .elegoo, "its kind from the registry")
            XCTAssertEqual(dialog.host.text, "127.0.0.1", "the answer's sender")
        }
    }
}
