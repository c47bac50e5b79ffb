import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Print notifications against real peers: a Bambu P1S (Debian's mosquitto with the fake printer,
/// and its JPEG-over-TLS camera on port 6000, both on a loopback address of the test's own) and a
/// notification server on the private session bus that records what GLib sends it
/// (Tests/Servers/notification_server.py, owning org.gtk.Notifications as GNOME Shell does, and
/// org.freedesktop.Notifications). A print that finishes, fails or pauses and a new HMS alert each
/// notify once, with the printer's name, the job and the camera's picture; a reconnect or a restart
/// repeats nothing; the switch silences a printer; a click brings up its tab.
final class NotificationTests: XCTestCase {
    private let code = "31415926"

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAFinishedPrintNotifiesOnceAndNeitherAReconnectNorARestartRepeatsIt() throws {
        let notifications = try notificationServer()
        let host = randomLoopbackAddress()
        let camera = try TestServer(script: "bambu_jpeg_server.py",
                                    arguments: ["--bind", host, "--port", "6000", "--password", code, "--width", "640", "--height", "360", "--fps", "4"])
        addTeardownBlock { camera.stop() }
        let (mqtt, printer) = try fakeP1S(code: code, on: host)
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 20) { page.status.strip.stateText == "Idle" && page.surface!.shownFrame != nil },
                          "status \(String(describing: page.status.strip.stateText)), camera \(page.state)")
            mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy_0.2mm_PLA", "mc_percent": 42]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.status.strip.stateText == "Printing" })
            mqtt.send(["cmd": "set", "print": ["gcode_state": "FINISH", "mc_percent": 100]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { notifications.events(named: "notification").count == 1 })
            let finished = try XCTUnwrap(notifications.events(named: "notification").first)
            XCTAssertEqual(finished.string("interface"), "gtk", "GNOME Shell's interface is chosen while its name has an owner")
            XCTAssertEqual(finished.string("app_id"), Self.id(of: app))
            XCTAssertEqual(finished.string("id"), "printer-\(printer.id.uuidString)")
            XCTAssertEqual(finished.string("title"), "Bench P1S: print finished")
            XCTAssertEqual(finished.string("body"), "Benchy_0.2mm_PLA")
            XCTAssertEqual(finished.string("priority"), "normal")
            XCTAssertEqual(finished.string("default_action"), "app.show-printer")
            XCTAssertEqual(finished.string("target"), printer.id.uuidString)
            let icon = try XCTUnwrap(finished.fields["icon"] as? [String: Any])
            XCTAssertEqual(icon["kind"] as? String, "bytes", "the camera's picture, not a themed icon: \(icon)")
            XCTAssertEqual(icon["format"] as? String, "png")
            XCTAssertEqual(icon["width"] as? Int, 256, "640×360 scaled to 256 wide: \(icon)")
            XCTAssertEqual(icon["height"] as? Int, 144)
            app.flushSaves()
            let ledger = try String(contentsOf: state.appendingPathComponent(NotificationLedger.fileName), encoding: .utf8)
            XCTAssertTrue(ledger.contains("\"finished\"") && ledger.contains("Benchy_0.2mm_PLA"), ledger)

            // The broker restarts: the status drops and comes back finished. Nothing new.
            restartBroker(mqtt, of: printer, in: app) { page.status.strip.stateText == "Finished" }
            XCTAssertFalse(iterateMainContext(timeout: 3) { notifications.events(named: "notification").count > 1 },
                           "a reconnect reporting the same state notifies nothing")

            // A new instance on the same config and state: the finished print it is shown first is old news.
            gtk_window_destroy(gcast(window.window))
            app.flushSaves()
            let (again, window2) = try startApp(config: config, state: state)
            let page2 = try XCTUnwrap(window2.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 20) { page2.status.strip.stateText == "Finished" })
            XCTAssertFalse(iterateMainContext(timeout: 3) { notifications.events(named: "notification").count > 1 },
                           "a restart notifies nothing already notified")

            // A new print of its own finishing notifies again.
            mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Cube", "mc_percent": 3]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { page2.status.strip.stateText == "Printing" })
            mqtt.send(["cmd": "set", "print": ["gcode_state": "FINISH", "mc_percent": 100]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { notifications.events(named: "notification").count == 2 })
            let cube = try XCTUnwrap(notifications.events(named: "notification").last)
            XCTAssertEqual(cube.string("app_id"), Self.id(of: again))
            XCTAssertEqual(cube.string("title"), "Bench P1S: print finished")
            XCTAssertEqual(cube.string("body"), "Cube")
            XCTAssertEqual(cube.string("id"), finished.string("id"), "one notification per printer: the newer replaces the older")

            // A print that ends while Layerwatch is closed is told at the next start, once: the
            // ledger remembers it printing.
            mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Lid", "mc_percent": 50]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { page2.status.strip.stateText == "Printing" })
            gtk_window_destroy(gcast(window2.window))
            again.flushSaves()
            let sets = mqtt.events(named: "done").count
            mqtt.send(["cmd": "set", "print": ["gcode_state": "FINISH", "mc_percent": 100]])
            XCTAssertTrue(waitUntil(timeout: 10) { mqtt.events(named: "done").count > sets }, "the printer finished meanwhile")
            let (third, window3) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window3.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 20) { notifications.events(named: "notification").count >= 3 })
            let lid = try XCTUnwrap(notifications.events(named: "notification").last)
            XCTAssertEqual(lid.string("app_id"), Self.id(of: third))
            XCTAssertEqual(lid.string("title"), "Bench P1S: print finished")
            XCTAssertEqual(lid.string("body"), "Lid")
            XCTAssertFalse(iterateMainContext(timeout: 2) { notifications.events(named: "notification").count > 3 })
        }
    }

    func testPausesFailuresAndNewHMSAlertsNotifyAndTheSwitchSilencesThePrinter() throws {
        let notifications = try notificationServer()
        // No camera answers on this address: the notification carries the app's icon instead.
        let (mqtt, printer) = try fakeP1S(code: code, on: randomLoopbackAddress())
        let plainCamera = Printer(name: "Door", kind: .generic, cameras: [PrinterCamera(url: try TestClips.smpteBars(seconds: 2).path)])
        let (config, state) = try directories(with: [printer, plainCamera])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.page(id: printer.id))
            let strip = page.status.strip
            XCTAssertTrue(iterateMainContext(timeout: 20) { strip.stateText == "Idle" })
            @MainActor func report(_ fields: [String: Any], shows state: String) {
                mqtt.send(["cmd": "set", "print": fields])
                XCTAssertTrue(iterateMainContext(timeout: 10) { strip.stateText == state }, "\(fields)")
            }
            @MainActor func awaitNotification(_ count: Int) throws -> TestServer.Event {
                XCTAssertTrue(iterateMainContext(timeout: 10) { notifications.events(named: "notification").count >= count })
                let all = notifications.events(named: "notification")
                XCTAssertEqual(all.count, count, "\(all.map(\.fields))")
                return try XCTUnwrap(all.last)
            }

            report(["gcode_state": "RUNNING", "subtask_name": "Gearbox", "mc_percent": 10], shows: "Printing")
            report(["gcode_state": "PAUSE", "print_error": 0x0700_8012], shows: "Paused")
            let paused = try awaitNotification(1)
            XCTAssertEqual(paused.string("title"), "Bench P1S: print paused")
            XCTAssertEqual(paused.string("body"), "Gearbox\nFailed to get AMS mapping table; please select 'Resume' to retry. (0700_8012)")
            XCTAssertEqual(Self.buttons(of: paused), [["Learn More", "app.open-link", "https://wiki.bambulab.com/en/hms/error-code"]])
            XCTAssertEqual(paused.string("priority"), "high")
            let icon = try XCTUnwrap(paused.fields["icon"] as? [String: Any])
            XCTAssertEqual(icon["kind"] as? String, "themed", "no picture: the app's icon")
            XCTAssertEqual((icon["names"] as? [String])?.first, LayerwatchApplication.applicationID)

            report(["gcode_state": "RUNNING", "print_error": 0], shows: "Printing")
            // A state is told once it has held for the gate's settle time: the print runs a while.
            _ = iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 1) { false }
            report(["gcode_state": "PAUSE"], shows: "Paused")
            XCTAssertEqual(try awaitNotification(2).string("title"), "Bench P1S: print paused", "pause, resume, pause: two")

            report(["gcode_state": "RUNNING"], shows: "Printing")
            // The printer refusing an unsigned command is no fault: nothing to notify.
            mqtt.send(["cmd": "set", "print": ["hms": [["attr": 0x0500_0500, "code": 0x0001_0007]]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { !strip.alerts.rowsShown.isEmpty })
            XCTAssertFalse(iterateMainContext(timeout: 3) { notifications.events(named: "notification").count > 2 },
                           "the Developer Mode advice is not a printer alert")
            mqtt.send(["cmd": "set", "print": ["hms": [["attr": 0x0300_0100, "code": 0x0001_0007]]]])
            let alert = try awaitNotification(3)
            XCTAssertEqual(alert.string("title"), "Bench P1S: printer alert")
            XCTAssertEqual(alert.string("body"),
                           "Gearbox\nThe heatbed temperature is abnormal, the sensor may have an open circuit. (0300_0100_0001_0007)")
            let heatbedPage = "https://e.bambulab.com/index.php?e=0300010000010007&s=device_hms&lang=en"
            XCTAssertEqual(Self.buttons(of: alert), [["Learn More", "app.open-link", heatbedPage]])
            // Its Learn More, pressed as GNOME Shell does: the app opens Bambu's page, nothing else.
            var opened: [String] = []
            app.openURI = { opened.append($0) }
            notifications.send(["cmd": "click", "id": "printer-\(printer.id.uuidString)", "button": 0])
            XCTAssertTrue(iterateMainContext(timeout: 10) { opened == [heatbedPage] }, "\(opened)")
            XCTAssertEqual(notifications.waitFor("done", timeout: 5) { $0.string("cmd") == "click" }?.string("action"), "app.open-link")
            g_action_group_activate_action(gcast(app.application), PrintNotifier.openLinkAction, g_variant_new_string("file:///etc/passwd"))
            XCTAssertFalse(iterateMainContext(timeout: 1) { opened.count > 1 }, "only Bambu's pages are opened: \(opened)")
            mqtt.send(["cmd": "set", "print": ["mc_percent": 11]])
            XCTAssertFalse(iterateMainContext(timeout: 3) { notifications.events(named: "notification").count > 3 },
                           "an alert still shown is not new")

            report(["gcode_state": "FAILED", "print_error": 0x0300_4006, "hms": []], shows: "Failed")
            let failed = try awaitNotification(4)
            XCTAssertEqual(failed.string("title"), "Bench P1S: print failed")
            XCTAssertEqual(failed.string("body"), "Gearbox\nThe nozzle is clogged. (0300_4006)")

            // The switch: in Preferences' Notifications page for a printer with status, off for this one only.
            app.showPreferences()
            let preferences = try XCTUnwrap(app.preferences.window)
            let toggle = try XCTUnwrap(preferences.notifications.printerSwitches[printer.id])
            XCTAssertTrue(Bool(gboolean: gtk_switch_get_active(gcast(toggle))))
            gtk_switch_set_active(gcast(toggle), false.gboolean)
            XCTAssertEqual(app.library.printer(id: printer.id)?.notifies, false)
            app.flushSaves()
            let saved = ConfigStore(directory: config, secrets: nil).load().config.printers
            XCTAssertEqual(saved.map(\.notifies), [false, true], "saved at once")
            report(["gcode_state": "RUNNING", "subtask_name": "Lid", "print_error": 0], shows: "Printing")
            report(["gcode_state": "FINISH"], shows: "Finished")
            XCTAssertFalse(iterateMainContext(timeout: 3) { notifications.events(named: "notification").count > 4 },
                           "switched off: silent")
            let again = try XCTUnwrap(preferences.notifications.printerSwitches[printer.id])
            gtk_switch_set_active(gcast(again), true.gboolean)
            XCTAssertEqual(app.library.printer(id: printer.id)?.notifies, true)
            XCTAssertFalse(iterateMainContext(timeout: 2) { notifications.events(named: "notification").count > 4 },
                           "switching on again does not notify what happened meanwhile")

            // A camera without status has nothing to notify: its switch is greyed out.
            let plainSwitch = try XCTUnwrap(preferences.notifications.printerSwitches[plainCamera.id])
            XCTAssertFalse(Bool(gboolean: gtk_widget_is_sensitive(plainSwitch)))
            gtk_window_destroy(gcast(preferences.window))

            // Removing the printer takes its notification off the desktop.
            app.editor.confirmRemoval(of: try XCTUnwrap(app.library.printer(id: page.printerID)), over: window.window)
            adw_message_dialog_response(gcast(try XCTUnwrap(app.editor.pendingRemoval)), "confirm")
            XCTAssertEqual(notifications.waitFor("withdrawn", timeout: 10)?.string("id"), "printer-\(printer.id.uuidString)")
        }
    }

    /// A fatal HMS alert the printer already has when Layerwatch first connects is shown and
    /// notified once: neither a reconnect nor a restart (the ledger keeps it) tells it again.
    func testAFatalAlertActiveBeforeConnectingIsNotifiedOnce() throws {
        let notifications = try notificationServer()
        let (mqtt, printer) = try fakeP1S(code: code, on: randomLoopbackAddress())
        mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Gearbox", "mc_percent": 40,
                                           "hms": [["attr": 0x0300_0100, "code": 0x0001_0007]]]])
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            let strip = try XCTUnwrap(window.tabs.page(id: printer.id)).status.strip
            XCTAssertTrue(iterateMainContext(timeout: 20) { !strip.alerts.rowsShown.isEmpty }, "the alert is shown")
            XCTAssertTrue(iterateMainContext(timeout: 10) { !notifications.events(named: "notification").isEmpty })
            let alert = try XCTUnwrap(notifications.events(named: "notification").first)
            XCTAssertEqual(alert.string("title"), "Bench P1S: printer alert")
            XCTAssertEqual(alert.string("body"),
                           "Gearbox\nThe heatbed temperature is abnormal, the sensor may have an open circuit. (0300_0100_0001_0007)")

            restartBroker(mqtt, of: printer, in: app) { !strip.alerts.rowsShown.isEmpty }
            XCTAssertFalse(iterateMainContext(timeout: 3) { notifications.events(named: "notification").count > 1 },
                           "a reconnect still showing the alert notifies nothing")

            gtk_window_destroy(gcast(window.window))
            app.flushSaves()
            let (_, window2) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window2.window)) }
            let strip2 = try XCTUnwrap(window2.tabs.page(id: printer.id)).status.strip
            XCTAssertTrue(iterateMainContext(timeout: 20) { !strip2.alerts.rowsShown.isEmpty })
            XCTAssertFalse(iterateMainContext(timeout: 3) { notifications.events(named: "notification").count > 1 },
                           "a restart notifies nothing the ledger has")
        }
    }

    /// Restarts the fake's broker (every client dropped) and waits until the printer's status has
    /// failed, come back live and `settled` holds.
    @MainActor private func restartBroker(_ mqtt: TestServer, of printer: Printer, in app: LayerwatchApplication,
                                          until settled: @escaping @MainActor () -> Bool) {
        var connections: [StatusMonitor.Connection?] = []
        let watch = app.statusHub.observe(printerID: printer.id) { connections.append($0?.connection) }
        mqtt.send(["cmd": "kick_clients"])
        XCTAssertTrue(iterateMainContext(timeout: 15) {
            connections.contains { if case .failed = $0 { true } else { false } }
                && app.statusHub.latest(printer.id)?.connection == .live && settled()
        }, "\(connections)")
        withExtendedLifetime(watch) {}
    }

    func testClickingTheNotificationBringsUpThePrintersTab() throws {
        let windowManager = try WindowManager() // minimising is the window manager's to do
        let notifications = try notificationServer()
        let (mqtt, printer) = try fakeP1S(code: code, on: randomLoopbackAddress())
        let plainCamera = Printer(name: "Door", kind: .generic, cameras: [PrinterCamera(url: try TestClips.smpteBars(seconds: 2).path)])
        let (config, state) = try directories(with: [printer, plainCamera], selected: plainCamera.id)
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertEqual(window.tabs.selected?.name, "Door")
            XCTAssertTrue(iterateMainContext(timeout: 20) { app.statusHub.latest(printer.id)?.status?.state == .idle })
            mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy"]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(printer.id)?.status?.state == .printing })
            mqtt.send(["cmd": "set", "print": ["gcode_state": "FINISH"]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { notifications.events(named: "notification").count == 1 })

            let surface = gtk_native_get_surface(gcast(window.window))!
            let minimized = { gdk_toplevel_get_state(gcast(surface)).rawValue & GDK_TOPLEVEL_STATE_MINIMIZED.rawValue != 0 }
            gtk_window_minimize(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { minimized() }, "the window manager minimised it")

            // As GNOME Shell does: org.freedesktop.Application.ActivateAction on the app's own name.
            notifications.send(["cmd": "click", "id": "printer-\(printer.id.uuidString)"])
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.tabs.selected?.printerID == printer.id && !minimized() },
                          "selected \(String(describing: window.tabs.selected?.name)), minimised \(minimized())")
            let click = try XCTUnwrap(notifications.waitFor("done", timeout: 5) { $0.string("cmd") == "click" })
            XCTAssertEqual(click.string("method"), "ActivateAction")
            XCTAssertEqual(click.string("app_id"), Self.id(of: app))
            XCTAssertTrue(notifications.events(named: "error").isEmpty, "\(notifications.events(named: "error").map(\.fields))")
        }
        withExtendedLifetime(windowManager) {}
    }

    // MARK: Helpers

    @MainActor
    private static func id(of app: LayerwatchApplication) -> String {
        String(cString: g_application_get_application_id(gcast(app.application)))
    }

    /// A notification's buttons as [label, action, target].
    private static func buttons(of notification: TestServer.Event) -> [[String]] {
        (notification.fields["buttons"] as? [[String: Any]] ?? []).map { button in
            ["label", "action", "target"].map { button[$0] as? String ?? "" }
        }
    }
}
