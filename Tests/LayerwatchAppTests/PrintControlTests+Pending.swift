import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import TestSupport
import XCTest

/// A command waiting for the printer looks pending: from the click, the tab's strip, the farm tile
/// and the mini window say "Pausing…" and the control is greyed with that reason, until the printer
/// reports the new state or the timeout passes; a printer that does it after the timeout is told.
extension PrintControlTests {
    func testAPendingCommandShowsEverywhereUntilThePrinterReportsAndALateAnswerIsTold() throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        try MainActor.assumeIsolated {
            let (server, app, window) = try bambuApp("X1C Workshop")
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            let pause = try XCTUnwrap(page.controls.button("pause-print"))
            let resume = try XCTUnwrap(page.controls.button("resume-print"))
            let (strips, mini) = try statusStripsEverywhere(of: page, in: app, window: window)
            defer { mini.close() }
            let everywhere = { (text: String) in strips.allSatisfy { $0.stateText == text } }
            let toasted = { (text: String) in iterateMainContext(timeout: 20) { toastTitles(in: window.window).contains(text) } }

            server.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy", "mc_percent": 50]])
            XCTAssertTrue(iterateMainContext(timeout: 15) { shown(pause) && sensitive(pause) })
            XCTAssertEqual(page.status.strip.stateText, "Printing")
            server.send(["cmd": "answers", "mode": "silent"])
            XCTAssertNotNil(server.waitFor("done") { $0.string("cmd") == "answers" })
            _ = iterateMainContext(timeout: 1) { false }  // the window manager has placed the window

            // The click: pending at once, on the strip, the tile and the mini window; the control greyed, saying why.
            XCTAssertEqual(click(pause), 0)
            XCTAssertTrue(iterateMainContext(timeout: 2) { everywhere("Pausing…") }, "\(strips.map(\.stateText))")
            XCTAssertTrue(shown(pause) && !sensitive(pause), "the control stays, greyed")
            XCTAssertEqual(String(cString: gtk_widget_get_tooltip_text(pause)), "Pausing…")
            XCTAssertFalse(window.isEnabled("pause-print"))
            XCTAssertEqual(page.status.strip.percentText, "50 %", "the rest of the status stays")

            // The printer reports the pause (before the timeout): Paused everywhere, Resume offered, nothing to tell.
            XCTAssertTrue(iterateMainContext(timeout: 3) { printCommands(server) == ["pause"] })
            server.send(["cmd": "set", "print": ["gcode_state": "PAUSE"]])
            XCTAssertTrue(iterateMainContext(timeout: 5) { everywhere("Paused") }, "\(strips.map(\.stateText))")
            XCTAssertTrue(iterateMainContext(timeout: 2) { shown(resume) && sensitive(resume) })

            // No answer: "Resuming…" until the timeout, which the toast tells; then the control is back.
            XCTAssertEqual(click(resume), 0)
            XCTAssertTrue(iterateMainContext(timeout: 2) { everywhere("Resuming…") }, "\(strips.map(\.stateText))")
            XCTAssertFalse(sensitive(resume))
            XCTAssertFalse(iterateMainContext(timeout: 7) { !everywhere("Resuming…") }, "pending until the timeout")
            XCTAssertTrue(toasted("X1C Workshop: The printer did not answer within 10 seconds."), "\(toastTitles(in: window.window))")
            XCTAssertTrue(iterateMainContext(timeout: 2) { everywhere("Paused") && sensitive(resume) }, "\(strips.map(\.stateText))")
            XCTAssertFalse(toastTitles(in: window.window).contains { $0.contains("after all") }, "nothing was done before")

            // The printer resumes after all: that is told, and the strip follows.
            server.send(["cmd": "set", "print": ["gcode_state": "RUNNING"]])
            XCTAssertTrue(toasted("X1C Workshop resumed after all."), "\(toastTitles(in: window.window))")
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.status.strip.stateText == "Printing" && shown(pause) && sensitive(pause) })
        }
    }

    func testAKlipperStopWaitingForItsAnswerIsCancellingEverywhereAndGreysEveryControl() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: [])
        defer { moonraker.stop() }
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
        moonraker.send(["cmd": "mode", "mode": "stall", "path": "/printer/print/cancel"])
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                            cameras: [PrinterCamera(url: "http://127.0.0.1:\(closedLoopbackPort())/?action=stream")])
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [voron]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            let (strips, mini) = try statusStripsEverywhere(of: page, in: app, window: window)
            defer { mini.close() }
            let pause = try XCTUnwrap(page.controls.button("pause-print"))
            XCTAssertTrue(iterateMainContext(timeout: 15) { shown(pause) && sensitive(pause) })
            gtk_widget_activate_action_variant(window.window, "printer.stop-print", nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.printCommands.pendingStop != nil })
            adw_message_dialog_response(gcast(try XCTUnwrap(app.printCommands.pendingStop)), "confirm")
            XCTAssertTrue(iterateMainContext(timeout: 3) { strips.allSatisfy { $0.stateText == "Cancelling…" } }, "\(strips.map(\.stateText))")
            XCTAssertTrue(shown(pause) && !sensitive(pause), "after a stop, every control waits")
            XCTAssertEqual(String(cString: gtk_widget_get_tooltip_text(pause)), "Cancelling…")
            XCTAssertFalse(window.isEnabled("stop-print"))
        }
    }
}
