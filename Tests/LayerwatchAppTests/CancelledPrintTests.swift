import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import TestSupport
import XCTest

/// A stopped print is "Cancelled" on the tab and the farm tile, calmly (no error tone, no attention,
/// ordered with the finished prints), for Bambu, Moonraker, OctoPrint and Creality, against the
/// real test printers and the notification server on the test's session bus: a cancel from
/// elsewhere (another client, the printer's screen) is notified once with normal urgency, a stop or
/// pause sent from this Layerwatch's own controls is not notified back, and a pause the printer
/// made itself (filament ran out) still is. Nothing reads "failed", nothing is urgent.
final class CancelledPrintTests: XCTestCase {
    private let code = "27182818"

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// The notifications so far; fails when more than `count` came.
    @MainActor
    private func awaitNotifications(_ server: TestServer, _ count: Int, file: StaticString = #filePath, line: UInt = #line) -> [TestServer.Event] {
        XCTAssertTrue(iterateMainContext(timeout: 10) { server.events(named: "notification").count >= count }, file: file, line: line)
        let all = server.events(named: "notification")
        XCTAssertEqual(all.count, count, "\(all.map(\.fields))", file: file, line: line)
        return all
    }

    /// No notification beyond the `count` there are, for longer than a state takes to settle.
    @MainActor
    private func assertNoMore(_ server: TestServer, than count: Int, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 3) { server.events(named: "notification").count > count },
                       "\(why): \(server.events(named: "notification").map(\.fields))", file: file, line: line)
    }

    /// Checks `strip` shows a calm "Cancelled": no error tone, no message.
    @MainActor
    private func assertCalmlyCancelled(_ strip: StatusStrip, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(strip.stateText, "Cancelled", file: file, line: line)
        XCTAssertNil(strip.messageText, "a stop is no error", file: file, line: line)
        XCTAssertEqual(strip.alerts.rowsShown, [], "not the motion controller's error", file: file, line: line)
        XCTAssertEqual(strip.tone, .neutral, "not red", file: file, line: line)
    }

    /// Lets a state hold past the notification gate's settle time, so the next one is its own event.
    @MainActor
    private func settle() {
        _ = iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 1) { false }
    }

    func testABambuStopReadsCancelledAndOnlyWhatOthersDidIsNotified() throws {
        let notifications = try notificationServer()
        let (mqtt, printer) = try fakeP1S(code: code, on: randomLoopbackAddress())
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.page(id: printer.id))
            let strip = page.status.strip
            let tab = try XCTUnwrap(adw_tab_view_get_nth_page(gcast(window.tabs.view), 0))
            XCTAssertTrue(iterateMainContext(timeout: 20) { strip.stateText == "Idle" })
            @MainActor func report(_ fields: [String: Any], shows state: String) {
                mqtt.send(["cmd": "set", "print": fields])
                XCTAssertTrue(iterateMainContext(timeout: 10) { strip.stateText == state }, "\(fields): \(String(describing: strip.stateText))")
            }

            // Stopped on the printer's screen: FAILED with 0300_400C, "The task was canceled.".
            report(["gcode_state": "RUNNING", "subtask_name": "Gearbox", "mc_percent": 40], shows: "Printing")
            settle()
            report(["gcode_state": "FAILED", "print_error": 0x0300_400C], shows: "Cancelled")
            assertCalmlyCancelled(strip)
            XCTAssertEqual(strip.percentText, "40 %", "where it stopped")
            XCTAssertEqual(adw_tab_page_get_needs_attention(tab), 0, "a cancelled print wants no attention")
            let cancelled = try XCTUnwrap(awaitNotifications(notifications, 1).last)
            XCTAssertEqual(cancelled.string("title"), "Bench P1S: print cancelled")
            XCTAssertEqual(cancelled.string("body"), "Gearbox")
            XCTAssertEqual(cancelled.string("priority"), "normal")
            app.flushSaves()
            let ledger = try String(contentsOf: state.appendingPathComponent(NotificationLedger.fileName), encoding: .utf8)
            XCTAssertTrue(ledger.contains("\"cancelled\""), ledger)

            // The farm tile: calm too, with the finished prints, no "Motion controller error".
            window.showFarm(true)
            let tile = try XCTUnwrap(window.farm.tile(id: printer.id))
            XCTAssertTrue(iterateMainContext(timeout: 5) { tile.status.strip.stateText == "Cancelled" })
            assertCalmlyCancelled(tile.status.strip)
            XCTAssertFalse(tile.isFramed, "not a printer that needs attention (the camera is away: in trouble)")
            window.showFarm(false)

            // Stopped from this Layerwatch's own controls: shown, not notified back.
            report(["gcode_state": "RUNNING", "subtask_name": "Lid", "print_error": 0], shows: "Printing")
            settle()
            gtk_widget_activate_action_variant(window.window, "printer.stop-print", nil)
            let question: UnsafeMutablePointer<AdwMessageDialog> = gcast(try XCTUnwrap(app.printCommands.pendingStop))
            adw_message_dialog_response(question, "confirm")
            XCTAssertTrue(iterateMainContext(timeout: 10) { strip.stateText == "Cancelled" },
                          "\(String(describing: strip.stateText)) \(mqtt.events(named: "request").map(\.fields))")
            assertCalmlyCancelled(strip)
            assertNoMore(notifications, than: 1, "our own stop")

            // Paused from here: not notified; paused by the printer (filament ran out): notified.
            report(["gcode_state": "RUNNING", "subtask_name": "Hinge", "print_error": 0], shows: "Printing")
            settle()
            gtk_widget_activate_action_variant(window.window, "printer.pause-print", nil)
            XCTAssertTrue(iterateMainContext(timeout: 10) { strip.stateText == "Paused" })
            assertNoMore(notifications, than: 1, "our own pause")
            report(["gcode_state": "RUNNING"], shows: "Printing")
            settle()
            report(["gcode_state": "PAUSE", "print_error": 0x0300_8004], shows: "Paused")
            let runOut = try XCTUnwrap(awaitNotifications(notifications, 2).last)
            XCTAssertEqual(runOut.string("title"), "Bench P1S: print paused")
            XCTAssertEqual(runOut.string("body"), "Hinge\nFilament ran out. Please load new filament. (0300_8004)")
            XCTAssertFalse(notifications.events(named: "notification").contains { ($0.string("title") ?? "").contains("failed") })
            XCTAssertFalse(notifications.events(named: "notification").contains { $0.string("priority") == "urgent" })
        }
    }

    func testMoonrakerOctoPrintAndCrealityCancelsReadCancelledAndANoticeComesOnceFromElsewhere() throws {
        let notifications = try notificationServer()
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock { moonraker.stop() }
        let octoprint = try TestServer(script: "octoprint_server.py", arguments: ["--api-key", "OCTOKEY123456"])
        addTeardownBlock { octoprint.stop() }
        let creality = try TestServer(script: "creality_ws_server.py")
        addTeardownBlock { creality.stop() }
        let noCamera = [PrinterCamera(url: "http://127.0.0.1:\(closedLoopbackPort())/?action=stream")]
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port, cameras: noCamera)
        let prusa = Printer(name: "Prusa", kind: .octoprint, host: "127.0.0.1", apiPort: octoprint.port, accessCode: "OCTOKEY123456", cameras: noCamera)
        let k1c = Printer(name: "K1C", kind: .creality(.k1), host: "127.0.0.1", apiPort: creality.port, cameras: noCamera)
        let (config, state) = try directories(with: [voron, prusa, k1c])
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
        octoprint.send(["cmd": "set", "state": "Printing", "job": ["file": ["name": "vase.gcode", "display": "vase.gcode"]],
                        "progress": ["completion": 42]])
        creality.send(["cmd": "set", "fields": ["state": 1, "printFileName": "/usr/data/printer_data/gcodes/cube.gcode", "printProgress": 30]])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let strips = try [voron, prusa, k1c].map { try XCTUnwrap(window.tabs.page(id: $0.id)).status.strip }
            XCTAssertTrue(iterateMainContext(timeout: 20) { strips.allSatisfy { $0.stateText == "Printing" } }, "\(strips.map(\.stateText))")
            settle()

            // Cancelled elsewhere: Mainsail, OctoPrint's page (Cancelling, then Operational), the K1C's screen.
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "cancelled"]]])
            octoprint.send(["cmd": "set", "state": "Cancelling"])
            creality.send(["cmd": "set", "fields": ["state": 4]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strips[0].stateText == "Cancelled" && strips[2].stateText == "Cancelled" },
                          "\(strips.map(\.stateText))")
            XCTAssertEqual(strips[1].stateText, "Printing", "OctoPrint's Cancelling: still under way")
            octoprint.send(["cmd": "set", "state": "Operational", "progress": ["completion": NSNull()]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strips[1].stateText == "Cancelled" }, "\(strips.map(\.stateText))")
            XCTAssertFalse(iterateMainContext(timeout: 5) { strips[1].stateText != "Cancelled" }, "Operational after a cancel stays cancelled")
            for strip in strips { assertCalmlyCancelled(strip) }
            let told = awaitNotifications(notifications, 3)
            XCTAssertEqual(Set(told.compactMap { $0.string("title") }),
                           ["Voron: print cancelled", "Prusa: print cancelled", "K1C: print cancelled"])
            XCTAssertEqual(Set(told.compactMap { $0.string("body") }), ["gear.gcode", "vase.gcode", "cube.gcode"])
            XCTAssertTrue(told.allSatisfy { $0.string("priority") == "normal" }, "\(told.map(\.fields))")

            // The farm orders them with the finished prints, none framed.
            window.showFarm(true)
            let tiles = try [voron, prusa, k1c].map { try XCTUnwrap(window.farm.tile(id: $0.id)) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { tiles.allSatisfy { $0.status.strip.stateText == "Cancelled" } })
            XCTAssertFalse(tiles.contains { $0.isFramed }, "a cancelled print needs no attention")
            window.showFarm(false)

            // Stopped from here (the Voron's tab): not notified back.
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "bolt.gcode"]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strips[0].stateText == "Printing" })
            settle()
            window.tabs.select(try XCTUnwrap(window.tabs.page(id: voron.id)))
            gtk_widget_activate_action_variant(window.window, "printer.stop-print", nil)
            let question: UnsafeMutablePointer<AdwMessageDialog> = gcast(try XCTUnwrap(app.printCommands.pendingStop))
            adw_message_dialog_response(question, "confirm")
            XCTAssertTrue(iterateMainContext(timeout: 10) { strips[0].stateText == "Cancelled" })
            assertNoMore(notifications, than: 3, "our own stop")
            XCTAssertEqual(moonraker.events(named: "request").filter { $0.string("method") == "POST" }.compactMap { $0.string("path") },
                           ["/printer/print/cancel"])
        }
    }
}
