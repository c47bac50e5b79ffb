import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// A printer whose camera is a WebRTC camera (the aiortc peer `webrtc_camera.py`, WHEP on
/// loopback) in the real app under Xvfb: the camera's four quadrants read back in place from the
/// tab, the farm tile and the mini window, all three on the camera's one peer connection, and
/// removing the printer ends the WHEP session.
final class WebRTCWindowTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// Red, green, blue and white (every channel lit: what `barName` calls grey), left to right and
    /// top to bottom.
    static let quadrants: [String?] = ["red", "green", "blue", "grey"]

    /// The colours at the quadrants' centres of the camera's 320×240 picture as `picture` draws
    /// it; nil until GTK has drawn it.
    @MainActor
    static func quadrants(in picture: UnsafeMutablePointer<GtkWidget>?) -> [String?]? {
        guard let picture, let image = RenderedImage(of: picture) else { return nil }
        return [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)].map {
            image.barName(atFraction: $0.0, $0.1, ofPictureWithAspect: 320.0 / 240.0)
        }
    }

    func testTabFarmTileAndMiniWindowShowTheCameraOnOnePeerConnectionUntilThePrinterIsRemoved() throws {
        let camera = try TestServer(script: "webrtc_camera.py", arguments: ["--style", "whep"])
        addTeardownBlock { camera.stop() }
        let printer = Printer(name: "K2 Plus", kind: .generic, cameras: [PrinterCamera(url: "webrtc:http://127.0.0.1:\(camera.port)/cam/whep")])
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 30) { page.state == .live }, "\(page.state)")
            XCTAssertTrue(iterateMainContext(timeout: 10) { Self.quadrants(in: page.surface!.picture) == Self.quadrants },
                          "the tab: \(String(describing: Self.quadrants(in: page.surface!.picture)))")
            XCTAssertEqual(page.session!.stats.codec, "h264")
            XCTAssertEqual(page.session!.stats.sourceSize, PixelSize(width: 320, height: 240))

            window.showFarm(true)
            let tile = try XCTUnwrap(window.farm.tile(id: printer.id))
            XCTAssertTrue(tile.surface!.session === page.session, "the tile is a view of the tab's session")
            XCTAssertTrue(iterateMainContext(timeout: 10) { Self.quadrants(in: tile.surface!.picture) == Self.quadrants },
                          "the tile: \(String(describing: Self.quadrants(in: tile.surface!.picture)))")
            app.togglePopOut(tile.camera!)
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            XCTAssertTrue(iterateMainContext(timeout: 10) { Self.quadrants(in: mini.surface.picture) == Self.quadrants },
                          "the mini window: \(String(describing: Self.quadrants(in: mini.surface.picture)))")
            XCTAssertEqual(page.session!.consumerCount, 3, "tab, tile and mini window")
            XCTAssertEqual(camera.events(named: "offer").count, 1, "the camera saw one offer: one peer connection for the three")
            XCTAssertEqual(camera.events(named: "delete").count, 0)

            app.editor.confirmRemoval(of: try XCTUnwrap(app.library.printer(id: page.printerID)), over: window.window)
            adw_message_dialog_response(gcast(try XCTUnwrap(app.editor.pendingRemoval)), "confirm")
            XCTAssertTrue(app.miniWindows.all.isEmpty, "the mini window went with the printer")
            XCTAssertTrue(window.farm.tiles.isEmpty, "and its tile")
            XCTAssertTrue(iterateMainContext(timeout: 10) { camera.events(named: "delete").count == 1 }, "the WHEP session is ended")
            XCTAssertEqual(camera.events(named: "delete").first?.string("path"), "/whep/session/1")
            XCTAssertEqual(page.session!.state, .stopped)
            XCTAssertEqual(camera.events(named: "offer").count, 1, "and not opened again")
        }
    }
}
