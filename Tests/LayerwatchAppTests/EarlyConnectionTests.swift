import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// A launch starts its cameras' connections before GTK starts (`connectEarly`, what `run` does when
/// no other instance runs), and the tabs take those connections over: the camera sees one client
/// from the first moment, never a second one.
final class EarlyConnectionTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testCamerasConnectBeforeTheWindowAndTheTabsKeepThatConnection() throws {
        let server = try TestServer(script: "rtsp_server.py")
        let directory = try makeTemporaryDirectory()
        let garage = Printer(name: "Garage", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(server.port)/streaming/live/1")])
        let store = ConfigStore(directory: directory, secrets: nil)
        try store.save(AppConfig(printers: [garage]))
        try MainActor.assumeIsolated {
            let app = LayerwatchApplication(store: { store }, id: "io.github.layerwatch.Test\(UInt32.random(in: 0...UInt32.max))",
                                            stateDirectory: store.directory.appendingPathComponent("state"))
            app.connectEarly(cameras: [])
            XCTAssertNotNil(server.waitFor("client", timeout: 10), "connected with no window yet")
            XCTAssertNil(app.window)
            let session = try XCTUnwrap(app.sessions.existingSession(for: try StreamSource.parse(XCTUnwrap(garage.cameras[0].url))))
            XCTAssertEqual(session.consumerCount, 1)

            app.registerWithoutRunning()
            app.activate()
            let window = try XCTUnwrap(app.window)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.selected?.state == .live })
            XCTAssertEqual(session.consumerCount, 2, "the tab's view and its farm tile (hidden): the early one has left")
            XCTAssertTrue(window.farm.tile(id: garage.id)?.surface!.session === session)
            XCTAssertEqual(server.events(named: "client").count, 1, "one connection from launch to live tab")
            XCTAssertTrue(server.events(named: "client-closed").isEmpty)
        }
    }
}
