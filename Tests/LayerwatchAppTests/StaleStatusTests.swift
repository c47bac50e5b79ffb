import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// A status connection that drops after the printer answered: the tab's strip, the farm tile and
/// the mini window keep the last status, dimmed, with its age ("Reconnecting — last report 3 s
/// ago"), and the print controls stay in place, greyed with the reason; a printer never reached
/// keeps saying why. Against real Moonraker peers on loopback, under Xvfb.
final class StaleStatusTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    @MainActor
    private func sensitive(_ button: UnsafeMutablePointer<GtkWidget>) -> Bool { Bool(gboolean: gtk_widget_is_sensitive(button)) }

    @MainActor
    private func shown(_ button: UnsafeMutablePointer<GtkWidget>) -> Bool { Bool(gboolean: gtk_widget_get_visible(button)) }

    func testADroppedConnectionKeepsTheLastStatusDimmedWithItsAgeAndGreysTheControls() throws {
        var moonraker = try TestServer(script: "moonraker_server.py", arguments: [])
        defer { moonraker.stop() }
        let port = moonraker.port
        let printing: [String: Any] = ["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"],
                                                                "display_status": ["progress": 0.5]]]
        moonraker.send(printing)
        let camera = PrinterCamera(url: "http://127.0.0.1:\(closedLoopbackPort())/?action=stream")
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: port, cameras: [camera])
        let never = Printer(name: "Prusa", kind: .klipper, host: "127.0.0.1", apiPort: closedLoopbackPort(), cameras: [camera])
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [voron, never], selectedPrinterID: voron.id))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.page(id: voron.id))
            let pause = try XCTUnwrap(page.controls.button("pause-print"))
            let (strips, mini) = try statusStripsEverywhere(of: page, in: app, window: window)
            defer { mini.close() }
            let tileStrip = strips[1]
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.status.strip.stateText == "Printing" && sensitive(pause) })
            XCTAssertFalse(strips.contains { $0.isDimmed })

            // The printer that was never reached says why, as before.
            let prusa = try XCTUnwrap(window.farm.tile(id: never.id)).status.strip
            XCTAssertTrue(iterateMainContext(timeout: 10) { prusa.stateText == "Offline" })
            XCTAssertTrue(prusa.messageText?.contains("refused") == true, "\(String(describing: prusa.messageText))")
            XCTAssertFalse(prusa.isDimmed)

            // The Voron goes away: its last status stays, dimmed, with its age; the control stays, greyed, saying why.
            moonraker.stop()
            let reconnecting = { strips.allSatisfy { $0.isDimmed && $0.messageText?.hasPrefix("Reconnecting — last report ") == true } }
            XCTAssertTrue(iterateMainContext(timeout: 10) { reconnecting() }, "\(strips.map(\.messageText))")
            XCTAssertEqual(strips.map(\.stateText), ["Printing", "Printing", "Printing"])
            XCTAssertEqual(page.status.strip.percentText, "50 %")
            XCTAssertEqual(tileStrip.percentText, "50 %")
            XCTAssertFalse(strips.contains { $0.messageText?.contains("refused") == true }, "not the address's fault")
            XCTAssertTrue(shown(pause) && !sensitive(pause), "greyed, never gone")
            XCTAssertEqual(String(cString: gtk_widget_get_tooltip_text(pause)),
                           "Reconnecting to the printer: the controls come back when it answers")
            XCTAssertFalse(window.isEnabled("pause-print"))
            let first = try XCTUnwrap(page.status.strip.messageText)
            XCTAssertTrue(iterateMainContext(timeout: 4) { page.status.strip.messageText != first && reconnecting() },
                          "the age counts: \(first) → \(String(describing: page.status.strip.messageText))")
            XCTAssertTrue(page.status.strip.messageText?.hasSuffix(" s ago") == true)

            // Back on the same port: live again, not dimmed, the control usable.
            moonraker = try TestServer(script: "moonraker_server.py", arguments: ["--port", "\(port)"])
            moonraker.send(printing)
            XCTAssertTrue(iterateMainContext(timeout: 20) { !strips.contains { $0.isDimmed } && sensitive(pause) },
                          "\(strips.map(\.messageText))")
            XCTAssertNil(page.status.strip.messageText)
        }
    }
}
