import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Adding an Elegoo Centauri Carbon as a user would, against the fake printer on a loopback address
/// of its own with the printer's own ports — SDCP on 3030 and its MJPEG camera on 3031
/// (Tests/Servers/elegoo_sdcp_server.py, whose camera streams only once SDCP turned it on): Test
/// Connection tries the status first, then plays the camera; Add saves an Elegoo printer whose tab,
/// farm tile and mini window show its print, pausing as "Pausing", on one SDCP connection and one
/// camera connection.
final class ElegooDialogTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAddingACentauriCarbonPlaysItsCameraAndShowsItsPrintOnOneConnection() throws {
        let (printer, host) = try fakeCentauriCarbon(arguments: ["--interval", "0.5"])
        let windowManager = try WindowManager()  // the mini window is mapped
        defer { withExtendedLifetime(windowManager) {} }
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.select(.elegoo)
            XCTAssertEqual(dialog.kind.selected, PrinterChoice.all.firstIndex(of: .elegoo))
            XCTAssertEqual([dialog.name, dialog.host, dialog.timelapse.field, dialog.cameraRows.field].map(\.isShown), [true, true, true, true])
            XCTAssertEqual([dialog.accessCode, dialog.serial, dialog.apiPort, dialog.url, dialog.cameras, dialog.variantRow].map(\.isShown),
                           [false, false, false, false, false, false], "no code, no port, no model, no URL for its own camera")
            XCTAssertEqual(dialog.host.hintText, "On the printer's screen: Settings → Network, the IP address. No password is needed.")
            XCTAssertEqual(dialog.cameraRows.rowTexts, ["Camera 1 — The printer's own camera"])
            dialog.fill(name: "Carbon workshop", host: host)

            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 30) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.connectionTest.outcomes, [.passed, .passed], dialog.testResultText)
            let lines = dialog.testResultText.components(separatedBy: "\n")
            XCTAssertEqual(lines.first, "Connected: the printer says it is “Idle”.")
            XCTAssertTrue(lines.last?.hasPrefix("Connected: MJPEG 640×360. First picture after ") ?? false, dialog.testResultText)
            XCTAssertEqual(printer.events(named: "video-refused").count, 0, "the camera was tried once SDCP had turned it on")
            XCTAssertEqual(dialog.fieldsByProblem.compactMap { $0.1.errorText }, [], "nothing marked")
            if let scroller = gtk_widget_get_ancestor(dialog.connectionTest.widget, gtk_scrolled_window_get_type()),
               let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scroller)) {
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))  // the results in sight
            }
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "elegoo-dialog")

            dialog.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["Carbon workshop"])
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 20) { page.state == .live && page.status.strip.stateText == "Idle" },
                          "camera \(page.state), status \(String(describing: page.status.strip.stateText))")
            // The journal asks the printer's history once the status is live, from a queue of its
            // own, on a short connection of its own closed at once: it is awaited, so the
            // connections counted from here are those the app keeps.
            XCTAssertTrue(iterateMainContext(timeout: 20) {
                guard let asking = printer.events(named: "request").first(where: { $0.int("cmd") == 320 })?.int("connection") else { return false }
                return printer.events(named: "closed").contains { $0.int("connection") == asking }
            }, "the history asked on a connection that closed: \(printer.events(named: "request").map { $0.fields })")
            let openedBefore = printer.events(named: "opened").count
            printer.send(["cmd": "set", "fields": [
                "TempOfNozzle": 219.6, "TempTargetNozzle": 220, "TempOfHotbed": 60.1, "TempTargetHotbed": 60,
                "PrintInfo": ["Status": 13, "Filename": "/local/Benchy_PLA.gcode", "Progress": 42, "CurrentLayer": 57, "TotalLayer": 180,
                              "CurrentTicks": 1800, "TotalTicks": 6120]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.status.strip.stateText == "Printing" && page.status.strip.percentText == "42 %" },
                          "\(String(describing: page.status.strip.stateText)) \(String(describing: page.status.strip.percentText))")
            XCTAssertEqual(page.status.strip.jobText, "Benchy_PLA.gcode")

            let (strips, mini) = try statusStripsEverywhere(of: page, in: app, window: window)
            defer { mini.close() }
            printer.send(["cmd": "set", "fields": ["PrintInfo": ["Status": 5]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strips.allSatisfy { $0.stateText == "Pausing" } },
                          "tab, tile and mini window: \(strips.map { String(describing: $0.stateText) })")
            window.showFarm(true)
            let tile = try XCTUnwrap(window.farm.tile(id: page.printerID))
            XCTAssertTrue(iterateMainContext(timeout: 15) { tile.surface?.state == .live && tile.surface?.shownFrame != nil })
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "elegoo-farm")

            // The printer takes about four connections: the app keeps one SDCP websocket and one
            // camera connection, whatever shows them (tab, tile, mini window); the journal asks the
            // printer's history once, on a short connection closed at once.
            XCTAssertEqual(printer.events(named: "opened").count, openedBefore, "no second SDCP connection")
            let opened = printer.events(named: "opened")
            XCTAssertLessThanOrEqual(opened.compactMap { $0.int("clients") }.max() ?? 0, 2, "never more than the status and the history's")
            XCTAssertTrue(iterateMainContext(timeout: 10) { printer.events(named: "opened").count - printer.events(named: "closed").count == 1 },
                          "one SDCP websocket stays open: \(printer.events(named: "opened").count) opened, \(printer.events(named: "closed").count) closed")
            XCTAssertEqual(tile.surface?.session.consumerCount, 3, "tab, tile and mini window share the camera")
            XCTAssertEqual(printer.events(named: "video").last?.int("clients"), 1, "one camera connection")

            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved.kind, .elegoo)
            XCTAssertEqual(saved.host, host)
            XCTAssertNil(saved.apiPort)
            XCTAssertEqual(saved.cameras.map(\.url), [nil], "its own camera, which follows its address")
        }
    }

    /// Nothing answering at the address: the status row says so in words, the camera is not tried
    /// (the status turns it on), and the address field is marked.
    func testNothingAtTheAddressIsSaidUnderIt() throws {
        let host = randomLoopbackAddress()
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { _, _, dialog in
            dialog.select(.elegoo)
            dialog.fill(name: "Carbon", host: host)
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 30) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.connectionTest.outcomes, [.failed, .failed], dialog.testResultText)
            let lines = dialog.testResultText.components(separatedBy: "\n")
            XCTAssertEqual(lines.first, StatusFailure.refused.userMessage)
            XCTAssertEqual(lines.last, "Not tried until the printer's status answers: the status connection turns the camera on.")
            XCTAssertNotNil(dialog.host.errorText, "the address is the field to fix")
        }
    }

    /// A saved Centauri Carbon at start: its camera streams only once the status connection turned
    /// it on, and the tab plays it.
    func testASavedPrintersCameraPlaysAtStart() throws {
        let (printer, host) = try fakeCentauriCarbon()
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [Printer(name: "Carbon", kind: .elegoo, host: host)]))
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 30) { page.state == .live && page.status.strip.stateText == "Idle" },
                          "camera \(page.state), status \(String(describing: page.status.strip.stateText))")
            XCTAssertNotNil(printer.waitFor("video"))
        }
    }

    /// A camera tried before the printer took the status connection's Cmd 386 (here the printer
    /// ignores requests at first: its video stays off, and the camera answers 404) is tried again
    /// when the status comes live again with the video on.
    func testACameraTriedBeforeItWasTurnedOnIsTriedAgain() throws {
        let (printer, host) = try fakeCentauriCarbon()
        XCTAssertEqual(printer.perform(["cmd": "mode", "mode": "deaf"])?.name, "done")
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [Printer(name: "Carbon", kind: .elegoo, host: host)]))
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 20) { page.state == .failed(.notFound) && page.status.strip.stateText == "Idle" },
                          "camera \(page.state), status \(String(describing: page.status.strip.stateText))")
            XCTAssertEqual(printer.perform(["cmd": "mode", "mode": "normal"])?.name, "done")
            XCTAssertEqual(printer.perform(["cmd": "mode", "mode": "close"])?.name, "done")
            XCTAssertTrue(iterateMainContext(timeout: 30) { page.state == .live }, "camera \(page.state)")
            XCTAssertEqual(printer.events(named: "request").filter { $0.int("cmd") == 386 }.count, 2, "asked at each connection")
        }
    }
}
