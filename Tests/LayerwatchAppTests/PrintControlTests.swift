import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Pause, resume, stop and the print speed in the app against the real test printers (a Bambu
/// printer behind Debian's mosquitto, Moonraker): clicked and typed through XTEST (xdotool), each
/// reaches the printer once; the controls show and change only as the printer reports; stop asks
/// with Cancel as the default; a refusal, the Developer Mode lock and silence are told; a command
/// is meant for the print shown: the stop question closes when another begins, and a stop or pause
/// given after the printer reported another print (before the window heard of it) is not sent.
final class PrintControlTests: XCTestCase {
    let code = "16180339"

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// A fake Bambu printer and the app started with the saved printer `name` pointing at it.
    @MainActor
    func bambuApp(_ name: String) throws -> (TestServer, LayerwatchApplication, MainWindow) {
        let server = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial"])
        addTeardownBlock { server.stop() }
        let serial = try XCTUnwrap(server.waitFor("ready")?.string("serial"))
        let printer = Printer(name: name, kind: .bambuRTSPS(.x1c), host: "127.0.0.1", apiPort: server.port,
                              serial: serial, accessCode: code)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        let (app, window) = try startApp(in: directory)
        return (server, app, window)
    }

    func printCommands(_ server: TestServer) -> [String] {
        server.events(named: "request").filter { $0.string("kind") == "print" }
            .compactMap { (($0.fields["payload"] as? [String: Any])?["print"] as? [String: Any])?["command"] as? String }
    }

    @MainActor
    func shown(_ button: UnsafeMutablePointer<GtkWidget>) -> Bool { Bool(gboolean: gtk_widget_get_visible(button)) }

    @MainActor
    func sensitive(_ button: UnsafeMutablePointer<GtkWidget>) -> Bool { Bool(gboolean: gtk_widget_is_sensitive(button)) }

    @MainActor
    func click(_ button: UnsafeMutablePointer<GtkWidget>) -> Int32 {
        Pointer(widget: button).at(Double(gtk_widget_get_width(button)) / 2, Double(gtk_widget_get_height(button)) / 2,
                                   then: ["click", "1"])
    }

    func testTheTabsControlsFollowTheBambuPrinterAndStopAsksFirst() throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        try MainActor.assumeIsolated {
            let (server, app, window) = try bambuApp("X1C Workshop")
            defer { gtk_window_destroy(gcast(window.window)) }
            let controls = try XCTUnwrap(window.tabs.selected).controls
            let pause = try XCTUnwrap(controls.button("pause-print"))
            let resume = try XCTUnwrap(controls.button("resume-print"))
            let stop = try XCTUnwrap(controls.button("stop-print"))
            XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.selected?.printSummary != nil })
            XCTAssertFalse(shown(pause) || shown(resume) || shown(stop), "an idle printer has no print to control")
            XCTAssertFalse(window.isEnabled("pause-print"))

            server.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy", "mc_percent": 30]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown(pause) && sensitive(pause) }, "printing: Pause shows")
            XCTAssertTrue(shown(stop))
            XCTAssertFalse(shown(resume))

            // A printer that does not answer: the click changes nothing; after 10 s a toast says so.
            server.send(["cmd": "answers", "mode": "silent"])
            XCTAssertNotNil(server.waitFor("done") { $0.string("cmd") == "answers" })
            // The window manager has placed the window before the pointer goes to the button.
            _ = iterateMainContext(timeout: 1) { false }
            XCTAssertEqual(click(pause), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { printCommands(server) == ["pause"] }, "\(printCommands(server))")
            XCTAssertFalse(iterateMainContext(timeout: 8) { !shown(pause) }, "the controls wait for the printer")
            XCTAssertTrue(shown(pause) && !shown(resume), "nothing changed on the click")
            XCTAssertTrue(iterateMainContext(timeout: 6) {
                toastTitles(in: window.window).contains("X1C Workshop: The printer did not answer within 10 seconds.")
            }, "\(toastTitles(in: window.window))")

            // Answered: Resume shows when the printer reports the pause.
            server.send(["cmd": "answers", "mode": "normal"])
            XCTAssertTrue(iterateMainContext(timeout: 5) { server.events(named: "done").filter { $0.string("cmd") == "answers" }.count == 2 })
            XCTAssertEqual(click(pause), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown(resume) && !shown(pause) }, "paused, as reported")
            XCTAssertEqual(printCommands(server), ["pause", "pause"], "one command a click")

            // The keyboard: Ctrl+Alt+R resumes.
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertEqual(Keyboard.press("ctrl+alt+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown(pause) && !shown(resume) }, "printing again")
            XCTAssertEqual(printCommands(server).last, "resume")

            // Stop asks first, Cancel the default; Escape sends nothing.
            XCTAssertEqual(click(stop), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.printCommands.pendingStop != nil })
            let question: UnsafeMutablePointer<AdwMessageDialog> = gcast(try XCTUnwrap(app.printCommands.pendingStop))
            XCTAssertEqual(String(cString: adw_message_dialog_get_heading(question)), "Stop the Print?")
            XCTAssertEqual(String(cString: adw_message_dialog_get_body(question)),
                           "“Benchy” on “X1C Workshop” is stopped for good: it cannot be resumed.")
            XCTAssertEqual(String(cString: adw_message_dialog_get_default_response(question)), "cancel")
            XCTAssertEqual(adw_message_dialog_get_response_appearance(question, "confirm"), ADW_RESPONSE_DESTRUCTIVE)
            let dialogID = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(question))))
            XCTAssertEqual(Keyboard.press("Escape", window: dialogID), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.printCommands.pendingStop == nil }, "Escape closes it")
            XCTAssertEqual(printCommands(server).filter { $0 == "stop" }, [], "a cancelled question sends nothing")

            XCTAssertEqual(click(stop), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.printCommands.pendingStop != nil })
            adw_message_dialog_response(gcast(try XCTUnwrap(app.printCommands.pendingStop)), "confirm")
            XCTAssertTrue(iterateMainContext(timeout: 10) { !shown(pause) && !shown(stop) }, "stopped, as reported")
            XCTAssertEqual(printCommands(server).filter { $0 == "stop" }.count, 1)
        }
    }

    func testDeveloperModeLocksTheControlsAndARefusalSaysWhy() throws {
        try MainActor.assumeIsolated {
            let (server, app, window) = try bambuApp("H2D Bay 3")
            defer { gtk_window_destroy(gcast(window.window)) }
            let controls = try XCTUnwrap(window.tabs.selected).controls
            let pause = try XCTUnwrap(controls.button("pause-print"))
            server.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Cube", "fun": "3EC1AFFF9CFF"]])
            XCTAssertTrue(iterateMainContext(timeout: 15) { shown(pause) }, "the control stays in place")
            XCTAssertFalse(sensitive(pause), "insensitive while the firmware wants signed commands")
            XCTAssertEqual(String(cString: gtk_widget_get_tooltip_text(pause)),
                           "Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch")
            XCTAssertFalse(window.isEnabled("pause-print"))
            XCTAssertFalse(window.isEnabled("print-speed"))

            // Developer Mode on: the control works; the speed follows the report, not the click.
            server.send(["cmd": "set", "print": ["fun": "3EC18FFF9CFF"]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { sensitive(pause) })
            XCTAssertEqual(String(cString: gtk_widget_get_tooltip_text(pause)), "Pause Print (Ctrl+Alt+P)")
            XCTAssertEqual(window.tabs.selected?.printerActions?.speed, .standard)
            gtk_widget_activate_action_variant(window.window, "printer.print-speed", g_variant_new_string("ludicrous"))
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.tabs.selected?.printerActions?.speed == .ludicrous }, "as the printer reports")
            let speedRequest = server.events(named: "request").last { $0.string("kind") == "print" }
            XCTAssertEqual(((speedRequest?.fields["payload"] as? [String: Any])?["print"] as? [String: Any])?["param"] as? String, "4")

            // Firmware that refuses without saying so in `fun`: the toast names Developer Mode.
            server.send(["cmd": "answers", "mode": "unsigned"])
            XCTAssertNotNil(server.waitFor("done") { $0.string("cmd") == "answers" })
            gtk_widget_activate_action_variant(window.window, "printer.pause-print", nil)
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                toastTitles(in: window.window).contains("H2D Bay 3: Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch")
            }, "\(toastTitles(in: window.window))")
            XCTAssertTrue(shown(pause), "still printing: the printer refused")
        }
    }

    func testAMiniWindowsMenuActsOnItsOwnPrinterAndKlipperCancels() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: [])
        defer { moonraker.stop() }
        let bambu = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial"])
        defer { bambu.stop() }
        let serial = try XCTUnwrap(bambu.waitFor("ready")?.string("serial"))
        let x1c = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "127.0.0.1", apiPort: bambu.port, serial: serial, accessCode: code)
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                            cameras: [PrinterCamera(url: "http://127.0.0.1:\(closedLoopbackPort())/?action=stream")])
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [x1c, voron], selectedPrinterID: x1c.id))
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
        bambu.send(["cmd": "set", "print": ["gcode_state": "RUNNING"]])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let voronPage = try XCTUnwrap(window.tabs.page(id: voron.id))
            app.togglePopOut(voronPage.camera!)
            let mini = try XCTUnwrap(app.miniWindows[voron.id])
            defer { mini.close() }
            XCTAssertTrue(iterateMainContext(timeout: 15) {
                app.statusHub.latest(voron.id)?.status?.state == .printing && app.statusHub.latest(x1c.id)?.status?.state == .printing
            })
            XCTAssertEqual(window.tabs.selected?.printerID, x1c.id, "the main window shows the X1C")
            let menuButton = try XCTUnwrap(descendants(of: mini.window).first { String(cString: gtk_widget_get_css_name($0)) == "menubutton" })
            gtk_menu_button_popup(gcast(menuButton))
            XCTAssertTrue(iterateMainContext(timeout: 5) { mini.isMenuOpen })
            gtk_widget_activate_action_variant(mini.window, "printer.pause-print", nil)
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(voron.id)?.status?.state == .paused })
            let posts = moonraker.events(named: "request").filter { $0.string("method") == "POST" }.compactMap { $0.string("path") }
            XCTAssertEqual(posts, ["/printer/print/pause"], "the mini window's printer, once")
            XCTAssertEqual(printCommands(bambu), [], "not the selected tab's")

            // Klipper's word for stopping is cancel: in the menu and the question alike; the
            // selected X1C's controls and the farm tiles' menu keep Bambu's stop.
            XCTAssertTrue(menuLabels(gtk_menu_button_get_menu_model(gcast(menuButton))).contains("Cancel Print…"),
                          "\(menuLabels(gtk_menu_button_get_menu_model(gcast(menuButton))))")
            XCTAssertFalse(menuLabels(gtk_menu_button_get_menu_model(gcast(menuButton))).contains("Stop Print…"))
            let x1cStop = try XCTUnwrap(window.tabs.selected?.controls.button("stop-print"))
            XCTAssertTrue(String(cString: gtk_widget_get_tooltip_text(x1cStop)).hasPrefix("Stop Print…"))
            XCTAssertTrue(menuLabels(gcast(window.farm.menu.model.pointer)).contains("Stop Print…"))
            gtk_widget_activate_action_variant(mini.window, "printer.stop-print", nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.printCommands.pendingStop != nil })
            let question: UnsafeMutablePointer<AdwMessageDialog> = gcast(try XCTUnwrap(app.printCommands.pendingStop))
            XCTAssertEqual(String(cString: adw_message_dialog_get_heading(question)), "Cancel the Print?")
            XCTAssertEqual(String(cString: adw_message_dialog_get_body(question)), "“gear.gcode” on “Voron” is cancelled for good: it cannot be resumed.")
            XCTAssertEqual(gtk_window_get_transient_for(gcast(question)), gcast(mini.window), "asked over the mini window")
            adw_message_dialog_response(gcast(question), "cancel")
        }
    }

    func testAStopOrPauseIsNotSentToAPrintThatBeganAfterTheQuestion() throws {
        try MainActor.assumeIsolated {
            let (server, app, window) = try bambuApp("X1C Workshop")
            defer { gtk_window_destroy(gcast(window.window)) }
            let controls = try XCTUnwrap(window.tabs.selected).controls
            let pause = try XCTUnwrap(controls.button("pause-print"))
            // Toasts queue: each shows once the one before has gone.
            let toasted = { (text: String) in iterateMainContext(timeout: 20) { toastTitles(in: window.window).contains(text) } }
            let printerID = try XCTUnwrap(window.tabs.selected).printerID
            let job = { app.statusHub.latest(printerID)?.status?.job }

            // Another job begins while the question is up: it closes and says why.
            server.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Job_A"]])
            XCTAssertTrue(iterateMainContext(timeout: 15) { shown(pause) && job() == "Job_A" })
            gtk_widget_activate_action_variant(window.window, "printer.stop-print", nil)
            let question: UnsafeMutablePointer<AdwMessageDialog> = gcast(try XCTUnwrap(app.printCommands.pendingStop))
            XCTAssertEqual(String(cString: adw_message_dialog_get_body(question)),
                           "“Job_A” on “X1C Workshop” is stopped for good: it cannot be resumed.")
            server.send(["cmd": "set", "print": ["subtask_name": "Job_B", "mc_percent": 1]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.printCommands.pendingStop == nil }, "the question went with Job_A")
            XCTAssertTrue(toasted("X1C Workshop: “Job_A” has ended and “Job_B” has begun: nothing was sent."),
                          "\(toastTitles(in: window.window))")

            // Confirmed after the printer reported the end, before the window heard of it: the
            // monitor's newer report keeps the stop from going out.
            gtk_widget_activate_action_variant(window.window, "printer.stop-print", nil)
            let second = try XCTUnwrap(app.printCommands.pendingStop)
            XCTAssertNotNil(server.perform(["cmd": "set", "print": ["gcode_state": "FINISH", "mc_percent": 100]]))
            Thread.sleep(forTimeInterval: 1)  // the report reaches the monitor; the main loop has not run
            adw_message_dialog_response(gcast(second), "confirm")
            XCTAssertTrue(toasted("X1C Workshop: “Job_B” has ended: nothing was sent."), "\(toastTitles(in: window.window))")

            // The same for a pause clicked while the window still showed the print that had ended.
            server.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Job_C", "mc_percent": 0]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown(pause) && job() == "Job_C" })
            XCTAssertNotNil(server.perform(["cmd": "set", "print": ["subtask_name": "Job_D"]]))
            Thread.sleep(forTimeInterval: 1)
            gtk_widget_activate_action_variant(window.window, "printer.pause-print", nil)
            XCTAssertTrue(toasted("X1C Workshop: “Job_C” has ended and “Job_D” has begun: nothing was sent."),
                          "\(toastTitles(in: window.window))")
            XCTAssertEqual(printCommands(server), [], "neither the stop nor the pause reached the printer")
            XCTAssertTrue(shown(pause), "Job_D prints on")
        }
    }
}
