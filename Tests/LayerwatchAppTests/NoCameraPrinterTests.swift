import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Klipper or OctoPrint printer without a camera, against the real Moonraker and OctoPrint fakes:
/// added through the dialog (Find Cameras finding none is no error), saved and read back without a
/// camera, its tab and farm tile showing its status and the job's thumbnail the printer serves (the
/// texture as large as the picture served), the camera's features off; a thumbnail that is no
/// picture leaves the placeholder's icon.
final class NoCameraPrinterTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    private func server(_ script: String, _ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: script, arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    /// A Moonraker listing no camera, printing `benchy.gcode` whose thumbnail is `width` x `height`
    /// (or bytes that are no picture).
    private func printingMoonraker(width: Int = 300, height: Int = 200, garbage: Bool = false) throws -> TestServer {
        let moonraker = try server("moonraker_server.py")
        moonraker.send(["cmd": "webcams", "list": [Any]()])
        moonraker.send(["cmd": "thumbnail", "filename": "benchy.gcode", "width": width, "height": height, "garbage": garbage])
        moonraker.send(["cmd": "set", "status": [
            "print_stats": ["state": "printing", "filename": "benchy.gcode", "print_duration": 1200,
                            "info": ["current_layer": 42, "total_layer": 120]],
            "display_status": ["progress": 0.35], "extruder": ["temperature": 215.0, "target": 215.0],
            "heater_bed": ["temperature": 60.0, "target": 60.0],
        ]])
        for command in ["webcams", "thumbnail", "set"] {
            XCTAssertNotNil(moonraker.waitFor("done") { $0.string("cmd") == command }, command)
        }
        return moonraker
    }

    func testAMoonrakerPrinterWithoutACameraIsAddedAndShowsItsStatusAndThumbnail() throws {
        let moonraker = try printingMoonraker()
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.fill(.klipper, name: "Voron", host: "127.0.0.1", port: moonraker.port)
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.cameraList.cameras.count, 0)
            XCTAssertNil(dialog.host.errorText, "finding no camera is no error")
            XCTAssertNil(dialog.cameras.errorText)
            XCTAssertEqual(dialog.cameraRows.rowTexts, [])
            XCTAssertTrue(dialog.cameraRows.field.hintText?.contains("watched without a picture") == true,
                          dialog.cameraRows.field.hintText ?? "no hint")
            XCTAssertTrue(dialog.isValid, "\(dialog.blockingProblems)")
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 10) { dialog.testResultText.hasPrefix("Connected") }, dialog.testResultText)
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "no-camera-dialog")

            dialog.save()
            let page = try XCTUnwrap(window.tabs.all.first)
            XCTAssertEqual(window.tabs.all.map(\.name), ["Voron"])
            XCTAssertEqual(page.cameras.count, 0)
            XCTAssertNil(page.surface, "no video")
            let area = try XCTUnwrap(page.noCamera)
            XCTAssertTrue(Bool(gboolean: gtk_widget_is_ancestor(page.status.strip.widget, area.widget)), "the strip stands with the placeholder")
            XCTAssertTrue(iterateMainContext(timeout: 15) { area.thumbnailSize != nil }, "the thumbnail comes")
            XCTAssertEqual(area.thumbnailSize?.width, 300, "the texture is the picture Moonraker served")
            XCTAssertEqual(area.thumbnailSize?.height, 200)
            XCTAssertFalse(area.isIconShown)
            XCTAssertEqual(page.printSummary?.state, .printing)
            XCTAssertEqual(page.state, .idle)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isEnabled("pause-print") }, "its print controls work")
            for feature in ["snapshot", "record", "pop-out", "show-stats", "fullscreen", "show-camera-1"] {
                XCTAssertFalse(window.isEnabled(feature), "\(feature) needs a camera")
            }
            XCTAssertNil(page.cameraActions, "no picture, no zoom nor reconnect")
            XCTAssertNil(page.tileActions)
            XCTAssertEqual(page.controls.featureNames, ["pause-print", "resume-print", "stop-print"], "no camera buttons in its bar")
            XCTAssertTrue(window.isEnabled("close-tab"))
            XCTAssertTrue(window.isEnabled("edit-printer"))
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "no-camera-tab")
            XCTAssertFalse(window.activate("camera.snapshot"), "no picture, no snapshot")
            XCTAssertFalse(window.activate("camera.record"), "no picture, no recording")
            XCTAssertFalse(page.isRecording)
            _ = iterateMainContext(timeout: 1) { false }  // what those asked runs: no camera, nothing done

            window.showFarm(true)
            let tile = try XCTUnwrap(window.farm.tile(id: page.printerID))
            XCTAssertNil(tile.surface)
            let tileArea = try XCTUnwrap(tile.noCamera)
            XCTAssertTrue(iterateMainContext(timeout: 10) { tileArea.thumbnailSize != nil })
            XCTAssertEqual(tileArea.thumbnailSize?.width, 300)
            XCTAssertEqual(tileArea.thumbnailSize?.height, 200)
            XCTAssertEqual(tile.status.summary?.state, .printing)
            XCTAssertFalse(window.isEnabled("pop-out"))
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "no-camera-farm")

            app.flushSaves()
            let reloaded = ConfigStore(directory: directory, secrets: nil).load()
            XCTAssertNil(reloaded.problem)
            XCTAssertEqual(reloaded.config.printers.map(\.name), ["Voron"])
            XCTAssertEqual(reloaded.config.printers.first?.kind, .klipper)
            XCTAssertEqual(reloaded.config.printers.first?.cameras, [], "saved and read back without a camera")
        }
    }

    func testAThumbnailThatIsNoPictureLeavesTheIcon() throws {
        let moonraker = try printingMoonraker(garbage: true)
        let directory = try makeTemporaryDirectory()
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port)
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [voron]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.page(id: voron.id))
            let area = try XCTUnwrap(page.noCamera)
            XCTAssertTrue(iterateMainContext(timeout: 15) { app.statusHub.latest(voron.id)?.status?.thumbnail != nil },
                          "the bytes came")
            _ = iterateMainContext(timeout: 1) { false }
            XCTAssertNil(area.thumbnailSize, "bytes that are no picture are not shown")
            XCTAssertTrue(area.isIconShown, "the placeholder stays")
            ScreenCapture.saveIfAsked(as: "no-camera-icon")
            XCTAssertEqual(page.printSummary?.state, .printing, "the status shows all the same")
        }
    }

    func testAnOctoPrintPrinterWithoutACameraShowsThePluginsThumbnail() throws {
        let octoprint = try server("octoprint_server.py", ["--api-key", "OCTOKEY123456"])
        octoprint.send(["cmd": "settings", "webcam": ["webcamEnabled": false, "webcams": [Any]()]])
        octoprint.send(["cmd": "thumbnail", "path": "folder/clip.gcode", "width": 220, "height": 124])
        octoprint.send(["cmd": "set", "state": "Printing", "job": ["file": ["name": "clip.gcode", "display": "clip.gcode",
                                                                            "path": "folder/clip.gcode", "origin": "local"]],
                        "progress": ["completion": 60.0, "printTimeLeft": 900]])
        let directory = try makeTemporaryDirectory()
        let prusa = Printer(name: "Prusa", kind: .octoprint, host: "127.0.0.1", apiPort: octoprint.port, accessCode: "OCTOKEY123456")
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 60)
        let shelf = Printer(name: "Shelf", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [prusa, shelf]))
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.page(id: prusa.id))
            let area = try XCTUnwrap(page.noCamera)
            XCTAssertTrue(iterateMainContext(timeout: 15) { area.thumbnailSize != nil }, "the plugin's thumbnail comes")
            XCTAssertEqual(area.thumbnailSize?.width, 220)
            XCTAssertEqual(area.thumbnailSize?.height, 124)
            XCTAssertEqual(page.printSummary?.state, .printing)

            // In the farm beside a printer with a camera, its tile lines up with the other.
            window.showFarm(true)
            let tiles = try [prusa.id, shelf.id].map { try XCTUnwrap(window.farm.tile(id: $0)) }
            XCTAssertTrue(iterateMainContext(timeout: 15) { tiles[1].surface?.state == .live && tiles[0].noCamera?.thumbnailSize != nil })
            _ = iterateMainContext(timeout: 1) { false }
            XCTAssertEqual(gtk_widget_get_height(tiles[0].noCamera!.widget), gtk_widget_get_height(tiles[1].surface!.widget),
                           "the placeholder takes the picture's 16:9 place")
            ScreenCapture.saveIfAsked(as: "no-camera-farm-mixed")
        }
    }
}
