import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Adding a Flashforge printer as a user would, against the fake printer's HTTP API
/// (Tests/Servers/flashforge_server.py) whose `cameraStreamUrl` names a loopback MJPEG camera
/// (mjpeg_server.py): the form's fields and words, a wrong check code said under the check code,
/// Find Cameras taking the camera the printer names, Test Connection passing, and the saved
/// printer's print on its tab, its farm tile and its mini window.
final class FlashforgeDialogTests: XCTestCase {
    static let serial = "SNMOMC9900001", code = "31415926"

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAddingAFlashforgePrinterSaysAWrongCheckCodeFindsItsCameraAndShowsItsPrint() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        addTeardownBlock { camera.stop() }
        let printer = try TestServer(script: "flashforge_server.py", arguments: ["--serial", Self.serial, "--check-code", Self.code])
        addTeardownBlock { printer.stop() }
        let stream = "http://127.0.0.1:\(camera.port)/?action=stream"
        XCTAssertEqual(printer.perform(["cmd": "set", "detail": [
            "status": "printing", "printFileName": "/data/Benchy_PLA.gx", "printProgress": 0.42, "printLayer": 57,
            "targetPrintLayer": 180, "estimatedTime": 4320, "rightTemp": 219.6, "rightTargetTemp": 220, "platTemp": 60.1,
            "platTargetTemp": 60, "lightStatus": "open", "cameraStreamUrl": stream,
        ]])?.name, "done")
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.selectKind(.flashforge)
            XCTAssertEqual([dialog.name, dialog.host, dialog.apiPort, dialog.accessCode, dialog.serial, dialog.timelapse.field].map(\.isShown),
                           [true, true, true, true, true, true])
            XCTAssertEqual(dialog.accessCode.titleText, "Check code")
            XCTAssertEqual(dialog.serial.titleText, "Serial number", "needed: every request carries it")
            dialog.selectKind(.bambuJPEG(nil))
            XCTAssertEqual(dialog.serial.titleText, "Serial number (optional)", "a Bambu printer's tells it itself")
            XCTAssertEqual(dialog.accessCode.titleText, "Access code")
            dialog.selectKind(.flashforge)
            XCTAssertEqual(dialog.apiPort.placeholderText, "8898")
            XCTAssertTrue(dialog.accessCode.hintText?.contains("LAN-only mode") == true, dialog.accessCode.hintText ?? "no hint")
            XCTAssertTrue(dialog.accessCode.hintText?.contains("so the check code is kept in") == true, "where the check code is kept, by its name")
            dialog.fill(name: "Adventurer 5M Pro", host: "127.0.0.1", port: printer.port, code: "27182818")
            dialog.serial.text = Self.serial

            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 15) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.accessCode.errorText,
                           "The printer refused the serial number or check code — check both on the printer's screen.")
            XCTAssertNil(dialog.host.errorText, "not on the address")
            XCTAssertTrue(dialog.testResultText.contains("check code"), dialog.testResultText)
            XCTAssertFalse(dialog.testResultText.contains("27182818"), "the code is never repeated")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "flashforge-dialog-wrong-check-code")

            dialog.accessCode.text = Self.code
            XCTAssertNil(dialog.accessCode.errorText, "an edit of the code clears the old answer")
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.cameraList.cameras.map(\.url), [stream], "the camera the printer's status names")
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 20) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.connectionTest.outcomes, [.passed, .passed], dialog.testResultText)
            XCTAssertEqual(dialog.fieldsByProblem.compactMap { $0.1.errorText }, [], "nothing marked")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "flashforge-dialog-connected")
            if let scroller = adw_window_get_content(gcast(dialog.window)).flatMap({ gtk_widget_get_last_child($0) }) {
                let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scroller))
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
                _ = iterateMainContext(timeout: 1) { false }
                ScreenCapture.saveIfAsked(as: "flashforge-dialog-connected-camera")  // its camera and Test Connection's rows
            }

            dialog.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["Adventurer 5M Pro"])
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live && page.status.strip.stateText == "Printing" },
                          "camera \(page.state), status \(String(describing: page.status.strip.stateText))")
            let (strips, mini) = try statusStripsEverywhere(of: page, in: app, window: window)
            defer { app.togglePopOut(page.camera!) }
            let (tab, tile) = (strips[0], strips[1])
            XCTAssertTrue(iterateMainContext(timeout: 10) { strips.allSatisfy { $0.percentText == "42 %" } && tile.stateText == "Printing" },
                          "\(strips.map(\.percentText)) \(strips.map(\.stateText))")
            XCTAssertEqual([tab, tile].map(\.jobText), ["Benchy_PLA.gx", "Benchy_PLA.gx"], "tab and tile")
            XCTAssertEqual([tab, tile].map(\.layersText), ["layer 57 of 180", "layer 57 of 180"])
            XCTAssertTrue(mini.status.strip.titleText?.contains("Benchy_PLA.gx") == true, "the mini window's title names the print")
            XCTAssertEqual(printer.perform(["cmd": "set", "detail": ["status": "pausing"]])?.name, "done")
            XCTAssertTrue(iterateMainContext(timeout: 10) { [tab, tile].allSatisfy { $0.stateText == "Pausing" } },
                          "pausing shown as such: \([tab, tile].map(\.stateText))")
            window.showFarm(true)
            iterateFrames(10)
            ScreenCapture.saveIfAsked(as: "flashforge-farm-tile")
            window.showFarm(false)

            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved.kind, .flashforge)
            XCTAssertEqual(saved.serial, Self.serial)
            XCTAssertEqual(saved.accessCode, Self.code)
            XCTAssertEqual(saved.apiPort, printer.port)
            XCTAssertEqual(saved.cameras.map(\.url), [stream])
            XCTAssertEqual(RemovalText.body(for: saved), "Its settings and check code will be deleted from this computer.")
        }
    }

    /// An Adventurer 5M answering the discovery ask (a fake on 127.0.0.1, never the multicast
    /// group) is offered under "On your network"; its row fills in the address and serial number
    /// and leaves the check code to type.
    func testADiscoveredAdventurer5MFillsInItsAddressAndSerial() throws {
        let answering = try XCTUnwrap(LoopbackResponder { ask in
            ask.isEmpty ? [DiscoveryAnswers.flashforge(name: "Adventurer 5M Pro", serial: "SNMOMC9900728")] : nil
        })
        defer { answering.stop() }
        let configuration = PrinterDiscovery.Configuration(
            bindAddress: "127.0.0.1", endpoints: [.init(port: 0)],
            asks: [DiscoveryAsk(payload: [], port: answering.port, address: "225.0.0.9")], askAddress: "127.0.0.1", askInterval: 3)
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: ConfigStore(directory: directory, secrets: nil), discovery: configuration)
            defer { gtk_window_destroy(gcast(window.window)) }
            let dialog = try printerDialog(of: app)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.selectKind(.flashforge)
            XCTAssertTrue(iterateMainContext(timeout: 8) { dialog.discovered.row(serial: "SNMOMC9900728") != nil },
                          "offered: \(dialog.discoveredPrinters)")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "flashforge-dialog-discovered")
            adw_action_row_activate(gcast(try XCTUnwrap(dialog.discovered.row(serial: "SNMOMC9900728"))))
            XCTAssertEqual(dialog.draft.kind, .flashforge)
            XCTAssertEqual(dialog.host.text, "127.0.0.1")
            XCTAssertEqual(dialog.serial.text, "SNMOMC9900728")
            XCTAssertEqual(dialog.name.text, "Adventurer 5M Pro")
            XCTAssertEqual(dialog.accessCode.text, "", "the check code is the user's to type")
        }
    }
}
