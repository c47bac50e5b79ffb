import CGtk
import Foundation
import GtkKit
import JournalKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import TestSupport
import XCTest

/// An idle printer's farm tile shows its last print from the journal — the job, how it ended and
/// when, and its final picture where the camera shows none (the live picture wins while there is
/// one) — and the next print to end replaces it; against a real Moonraker peer and RTSP camera.
final class JournalIdleTileTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAnIdleTileShowsTheLastPrintAndItsFinalPicture() throws {
        let camera = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock {
            camera.stop()
            moonraker.stop()
        }
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                              cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(camera.port)/streaming/live/1")], notifies: false)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: [printer], window: .init(width: 900, height: 700, maximized: false), farm: .init(shown: true, attentionFirst: false)))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let journal = try XCTUnwrap(app.journal).store
            let tile = try XCTUnwrap(window.farm.tile(id: printer.id))
            XCTAssertTrue(iterateMainContext(timeout: 15) { tile.surface?.state == .live && app.statusHub.latest(printer.id)?.status?.state == .idle })
            XCTAssertNil(tile.lastPrint.text, "no print yet: no line")
            XCTAssertFalse(tile.lastPrint.isPictureShown)

            /// Runs a print of `job` to `end` and waits for its final picture in the journal.
            @MainActor func run(_ job: String, to end: String) throws -> JournalPrint {
                moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": job, "print_duration": 60]]])
                XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(printer.id)?.status?.state == .printing }, job)
                XCTAssertNil(tile.lastPrint.text, "printing: no last print")
                moonraker.send(["cmd": "set", "status": ["print_stats": ["state": end]]])
                XCTAssertTrue(iterateMainContext(timeout: 20) {
                    journal.prints(JournalQuery(limit: 1)).first.map { $0.job == job && $0.finalPicture != nil } ?? false
                }, "\(job)'s final picture: \(journal.prints(JournalQuery(limit: 1)))")
                return try XCTUnwrap(journal.prints(JournalQuery(limit: 1)).first)
            }

            let gear = try run("gear.gcode", to: "complete")
            XCTAssertTrue(iterateMainContext(timeout: 5) { tile.lastPrint.print?.finalPicture == gear.finalPicture })
            let line = try XCTUnwrap(tile.lastPrint.text)
            XCTAssertTrue(line.hasPrefix("Last print: gear.gcode · finished ") && line.hasSuffix(" ago"), line)
            XCTAssertEqual(Self.iconClasses(tile), ["emblem-ok-symbolic", "success"])
            XCTAssertFalse(tile.lastPrint.isPictureShown, "the live picture wins")
            Screen.save("journal-idle-tile-live")

            let bracket = try run("bracket.gcode", to: "error")
            XCTAssertTrue(iterateMainContext(timeout: 5) { tile.lastPrint.print?.finalPicture == bracket.finalPicture }, "the newer print replaces it")
            let failed = try XCTUnwrap(tile.lastPrint.text)
            XCTAssertTrue(failed.hasPrefix("Last print: bracket.gcode · failed ") && failed.hasSuffix(" ago"), failed)
            XCTAssertEqual(Self.iconClasses(tile), ["dialog-error-symbolic", "error"])

            // The camera goes away: the final picture takes the live one's place.
            camera.stop()
            XCTAssertTrue(iterateMainContext(timeout: 20) { tile.lastPrint.isPictureShown }, "state \(String(describing: tile.surface?.state))")
            let paintable = try XCTUnwrap(gtk_picture_get_paintable(gcast(try XCTUnwrap(tile.lastPrint.picture))))
            let file = try XCTUnwrap(bracket.finalPicture)
            var width: Int32 = 0, height: Int32 = 0
            XCTAssertNotNil(gdk_pixbuf_get_file_info(file.path, &width, &height), "a JPEG")
            XCTAssertEqual(gdk_paintable_get_intrinsic_width(paintable), width, "the final picture, whole")
            XCTAssertEqual(gdk_paintable_get_intrinsic_height(paintable), height)
            XCTAssertEqual([width, height], [640, 480], "the camera's picture")
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("journal-idle-tile")
        }
    }

    /// The tile's result icon's name and colour class.
    @MainActor
    private static func iconClasses(_ tile: FarmTile) -> [String] {
        guard let icon = gtk_widget_get_first_child(tile.lastPrint.line) else { return [] }
        let name = gtk_image_get_icon_name(gcast(icon)).map { String(cString: $0) } ?? ""
        return [name] + ["success", "error"].filter { Bool(gboolean: gtk_widget_has_css_class(icon, $0)) }
    }
}
