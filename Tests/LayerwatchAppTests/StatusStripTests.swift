import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The print's status in the app, against real peers: a Bambu printer (Debian's mosquitto with TLS
/// and a password file, and a fake printer publishing reports and obeying ledctrl), and Moonraker
/// with an API key in front of a real MJPEG camera. The strip, the tab, the stats and the light
/// switch follow what the printer reports; a status that fails says so without touching the camera.
final class StatusStripTests: XCTestCase {
    private let code = "27182818"
    private let printing: [String: Any] = [
        "gcode_state": "RUNNING", "subtask_name": "Benchy_0.2mm_PLA", "mc_percent": 42, "layer_num": 57,
        "total_layer_num": 180, "mc_remaining_time": 72, "nozzle_temper": 219.6, "nozzle_target_temper": 220,
        "bed_temper": 55.2, "bed_target_temper": 55, "chamber_temper": 31,
    ]

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// A fake Bambu printer and a saved printer whose status points at it (its camera, at
    /// 127.0.0.1:322, is refused: the status must not care).
    private func bambuPrinter() throws -> (TestServer, Printer) {
        let server = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial"])
        addTeardownBlock { server.stop() }
        let serial = try XCTUnwrap(server.waitFor("ready")?.string("serial"))
        let printer = Printer(name: "X1C Workshop", kind: .bambuRTSPS(.x1c), host: "127.0.0.1", apiPort: server.port,
                              serial: serial, accessCode: code)
        return (server, printer)
    }

    @MainActor
    private func startApp(with printers: [Printer]) throws -> (LayerwatchApplication, MainWindow) {
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: printers))
        return try LayerwatchAppTests.startApp(in: directory)
    }

    func testTheStripTabAndStatsFollowTheBambuPrintersReports() throws {
        let (server, printer) = try bambuPrinter()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(with: [printer])
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            let strip = page.status.strip
            let tab = try XCTUnwrap(adw_tab_view_get_nth_page(gcast(window.tabs.view), 0))
            XCTAssertTrue(iterateMainContext(timeout: 15) { strip.stateText == "Idle" }, "\(String(describing: strip.stateText))")
            XCTAssertNil(strip.jobText, "an idle printer shows its state alone")
            XCTAssertNil(strip.fraction)
            XCTAssertEqual(String(cString: adw_tab_page_get_title(tab)), "X1C Workshop")

            server.send(["cmd": "set", "print": printing])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strip.percentText == "42 %" }, "\(String(describing: strip.percentText))")
            XCTAssertEqual(strip.stateText, "Printing")
            XCTAssertEqual(strip.jobText, "Benchy_0.2mm_PLA")
            XCTAssertEqual(strip.fraction ?? 0, 0.42, accuracy: 0.001)
            XCTAssertEqual(strip.layersText, "layer 57 of 180")
            let time = try XCTUnwrap(strip.timeText)
            XCTAssertNotNil(time.range(of: #"^1 h 12 min · ends .*\d:\d\d"#, options: .regularExpression), time)
            XCTAssertEqual(String(cString: adw_tab_page_get_title(tab)), "X1C Workshop · 42 %", "the tab shows the progress")
            XCTAssertTrue(String(cString: adw_tab_page_get_tooltip(tab)).contains("Printing · 42 % · 1 h 12 min"))

            window.activate("camera.show-stats")
            let stats = page.surface!.stats.text
            XCTAssertTrue(stats.contains("nozzle   220 / 220 °C"), stats)
            XCTAssertTrue(stats.contains("bed      55 / 55 °C"), stats)
            XCTAssertTrue(stats.contains("chamber  31 °C"), stats)

            // The camera (nothing listens on 127.0.0.1:322) fails on its own, in its own card.
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.surface!.status.detailText.contains("refused") },
                          page.surface!.status.detailText)
            XCTAssertTrue(page.surface!.status.isShown)
            XCTAssertEqual(strip.percentText, "42 %")

            // The mini window keeps to two short lines: the printer and its job; bar, percentage, time left.
            app.togglePopOut(page.camera!)
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            defer { mini.close() }
            XCTAssertEqual(mini.status.strip.titleText, "X1C Workshop · Benchy_0.2mm_PLA", "which printer and job it shows")
            XCTAssertEqual(mini.status.strip.percentText, "42 %")
            XCTAssertEqual(mini.status.strip.timeText, "1 h 12 min")
            XCTAssertNil(mini.status.strip.jobText)
            XCTAssertNil(mini.status.strip.stateText, "a print under way needs no word in the mini window")
            XCTAssertEqual(mini.status.strip.fraction ?? 0, 0.42, accuracy: 0.001)

            server.send(["cmd": "set", "print": ["gcode_state": "PAUSE", "print_error": 0x0700_8012]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strip.stateText == "Paused" })
            let mapping = "Failed to get AMS mapping table; please select 'Resume' to retry. (0700_8012)"
            XCTAssertEqual(strip.alerts.rowsShown, [.init(text: mapping, link: "https://wiki.bambulab.com/en/hms/error-code",
                                                          linkLabel: "Learn More", isAdvice: false)])
            XCTAssertNil(strip.messageText, "the print error is an alert with its link, not a second line")
            XCTAssertEqual(mini.status.strip.messageText, mapping, "the mini window's one line words it")
            XCTAssertEqual(mini.status.strip.titleText, "X1C Workshop · Benchy_0.2mm_PLA", "under the printer and its job")
            XCTAssertEqual(strip.timeText, "1 h 12 min left", "a paused print has no end time")
            XCTAssertEqual(adw_tab_page_get_needs_attention(tab), 1, "a paused print wants attention")
            XCTAssertEqual(mini.status.strip.stateText, "Paused")

            server.send(["cmd": "set", "print": ["gcode_state": "FINISH", "print_error": 0, "mc_percent": 100, "layer_num": 180]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strip.stateText == "Finished" })
            XCTAssertEqual(strip.alerts.rowsShown, [], "no error, no alert")
            XCTAssertEqual(strip.fraction, 1)
            XCTAssertNil(strip.timeText)
            XCTAssertEqual(String(cString: adw_tab_page_get_title(tab)), "X1C Workshop")
            XCTAssertEqual(adw_tab_page_get_needs_attention(tab), 0)
        }
    }

    func testHMSAlertsReadInWordsWithTheirPagesInTheStripAndShortOnTheTile() throws {
        let (server, saved) = try bambuPrinter()
        var printer = saved
        printer.notifies = false
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(with: [printer])
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            let strip = page.status.strip
            XCTAssertTrue(iterateMainContext(timeout: 15) { strip.stateText == "Idle" })
            XCTAssertEqual(strip.alerts.rowsShown, [])

            server.send(["cmd": "set", "print": printing.merging(["hms": [["attr": 0x0300_1000, "code": 0x0002_0002],
                                                                          ["attr": 0x0700_4300, "code": 0x0002_0099],
                                                                          ["attr": 0x0500_0500, "code": 0x0001_0007]]]) { $1 }])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strip.alerts.rowsShown.count == 3 }, "\(strip.alerts.rowsShown)")
            let rows = strip.alerts.rowsShown
            XCTAssertEqual(rows[0], .init(text: "The 1st order mechanical resonance mode of X axis differs much from last calibration, "
                                              + "please re-run the machine calibration later. (0300_1000_0002_0002)",
                                          link: "https://e.bambulab.com/index.php?e=0300100000020002&s=device_hms&lang=en",
                                          linkLabel: "Learn More", isAdvice: false))
            XCTAssertEqual(rows[1], .init(text: "HMS 0700_4300_0002_0099 — AMS, Serious",
                                          link: "https://e.bambulab.com/index.php?e=0700430000020099&s=device_hms&lang=en",
                                          linkLabel: "Learn More", isAdvice: false), "no text is made up for an unknown code")
            XCTAssertEqual(rows[2].text, "Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch")
            XCTAssertTrue(rows[2].isAdvice, "a refused command is advice, not a fault")
            XCTAssertEqual(strip.stateText, "Printing", "the print goes on: no alert changes the state")
            XCTAssertNil(strip.alerts.moreText)

            window.showFarm(true)
            let tile = try XCTUnwrap(window.farm.tile(id: printer.id))
            XCTAssertTrue(iterateMainContext(timeout: 10) { !tile.status.strip.alerts.rowsShown.isEmpty })
            XCTAssertEqual(tile.status.strip.alerts.rowsShown.map(\.text),
                           ["Motion controller · Serious, AMS · Serious, Developer Mode is off"], "short on the tile")
            XCTAssertFalse(tile.isFramed, "alerts while printing do not frame the tile as a failed print")
            window.showFarm(false)

            server.send(["cmd": "set", "print": ["gcode_state": "FAILED", "print_error": 0x0700_8011,
                                                 "hms": [["attr": 0x0702_2300, "code": 0x0002_0001], ["attr": 0x0300_1000, "code": 0x0002_0002],
                                                         ["attr": 0x0700_4300, "code": 0x0002_0099]]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strip.stateText == "Failed" })
            XCTAssertEqual(strip.alerts.rowsShown.map(\.text),
                           ["AMS filament ran out. Please insert a new filament into the same AMS slot. (0700_8011)",
                            "AMS3 slot 4 filament has run out. (0702_2300_0002_0001)",
                            "The 1st order mechanical resonance mode of X axis differs much from last calibration, "
                                + "please re-run the machine calibration later. (0300_1000_0002_0002)"], "the print error first")
            XCTAssertEqual(strip.alerts.rowsShown.first?.link, "https://wiki.bambulab.com/en/hms/error-code")
            XCTAssertEqual(strip.alerts.moreText, "and 1 more alert")
        }
    }

    func testTheLightSwitchTurnsOnlyWhenThePrinterReportsIt() throws {
        let (server, printer) = try bambuPrinter()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(with: [printer])
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            let light = page.light
            XCTAssertTrue(light.isShown, "a Bambu printer has a chamber light to switch")
            XCTAssertFalse(light.isSensitive, "nothing reported yet")
            XCTAssertTrue(iterateMainContext(timeout: 15) { light.isSensitive }, "live, and the printer said")
            XCTAssertFalse(light.isOn)
            var requests: [Bool] = []
            let ask = light.onRequest
            light.onRequest = { on in
                requests.append(on)
                ask(on)
            }

            // With the printer away from the broker, a click asks but nothing answers: no change.
            server.send(["cmd": "disconnect_printer"])
            XCTAssertNotNil(server.waitFor("done", timeout: 10) { $0.string("cmd") == "disconnect_printer" })
            gtk_widget_activate(light.button)
            XCTAssertTrue(iterateMainContext(timeout: 3) { requests == [true] }, "\(requests)")
            XCTAssertFalse(light.isOn, "the click itself does not turn the switch")
            XCTAssertFalse(iterateMainContext(timeout: 2) { light.isOn }, "no report, no change")

            server.send(["cmd": "connect_printer"])
            XCTAssertNotNil(server.waitFor("done", timeout: 10) { $0.string("cmd") == "connect_printer" })
            gtk_widget_activate(light.button)
            XCTAssertTrue(iterateMainContext(timeout: 3) { requests == [true, true] }, "\(requests)")
            XCTAssertFalse(light.isOn)
            let request = server.waitFor("request", timeout: 10) { $0.string("kind") == "ledctrl" }
            let system = (request?.fields["payload"] as? [String: Any])?["system"] as? [String: Any]
            XCTAssertEqual(system?["led_node"] as? String, "chamber_light")
            XCTAssertEqual(system?["led_mode"] as? String, "on")
            XCTAssertTrue(iterateMainContext(timeout: 10) { light.isOn }, "on once the printer reports it")

            // The mini window's switch follows the same printer; the printer switching it off is shown.
            app.togglePopOut(page.camera!)
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            defer { mini.close() }
            XCTAssertTrue(mini.light.isShown && mini.light.isOn && mini.light.isSensitive)
            server.send(["cmd": "set", "print": ["lights_report": [["node": "chamber_light", "mode": "off"],
                                                                   ["node": "work_light", "mode": "off"]]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { !light.isOn && !mini.light.isOn })
            gtk_widget_activate(mini.light.button)
            XCTAssertTrue(iterateMainContext(timeout: 10) { light.isOn && mini.light.isOn }, "asked from the mini window")
            XCTAssertEqual(server.events(named: "request").filter { $0.string("kind") == "ledctrl" }.count, 2,
                           "one ledctrl per click that reached the printer")
        }
    }

    func testAFailedStatusSaysWhyWhileTheCameraPlaysAndAnEditReplacesIt() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: ["--api-key", "RIGHTKEY"])
        let camera = try TestServer(script: "mjpeg_server.py")
        var printer = Printer(name: "Voron 2.4", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port, accessCode: "WRONGKEY", cameras: [PrinterCamera(url: "http://127.0.0.1:\(camera.port)/?action=stream")])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(with: [printer])
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            let strip = page.status.strip
            XCTAssertTrue(iterateMainContext(timeout: 15) { strip.stateText == "Offline" && page.state == .live },
                          "\(String(describing: strip.stateText)), camera \(page.state)")
            let message = try XCTUnwrap(strip.messageText)
            XCTAssertTrue(message.hasPrefix("Status:") && message.contains("rejected"), message)
            XCTAssertFalse(message.contains("WRONGKEY"))
            XCTAssertFalse(page.surface!.status.isShown, "the camera's card stays away: the camera plays")
            XCTAssertTrue(page.surface!.isLiveBadgeShown)
            XCTAssertFalse(page.light.isShown, "Klipper has no light Layerwatch switches")
            XCTAssertFalse(iterateMainContext(timeout: 3) { moonraker.events(named: "request").count > 1 },
                           "a rejected key is not retried on its own")

            // Fixing the key replaces the status client; the camera's connection is the tab's business.
            printer.accessCode = "RIGHTKEY"
            app.editor.save(printer)
            let fixed = try XCTUnwrap(window.tabs.page(id: printer.id))
            XCTAssertTrue(iterateMainContext(timeout: 10) { fixed.status.strip.stateText == "Idle" },
                          "\(String(describing: fixed.status.strip.stateText))")
            XCTAssertNotNil(app.statusHub.endpoint(of: printer.id))

            // Removing the printer stops its status client.
            app.editor.confirmRemoval(of: try XCTUnwrap(app.library.printer(id: printer.id)), over: window.window)
            adw_message_dialog_response(gcast(try XCTUnwrap(app.editor.pendingRemoval)), "confirm")
            XCTAssertNil(app.statusHub.endpoint(of: printer.id))
            XCTAssertNil(app.statusHub.latest(printer.id))
            _ = iterateMainContext(timeout: 1) { false }
            let asked = moonraker.events(named: "request").count
            XCTAssertFalse(iterateMainContext(timeout: 4) { moonraker.events(named: "request").count > asked },
                           "no more polls after the printer is gone")
        }
    }
}
