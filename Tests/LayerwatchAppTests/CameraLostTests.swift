import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// Camera Lost against the whole app and a notification server on the test bus: a tab whose camera
/// keeps failing for longer than the Preferences' minutes (a minute made a second long) is
/// notified once, and not at all while Camera Lost is off.
final class CameraLostTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testACameraLostForLongerThanTheMinutesIsNotifiedOnce() throws {
        let notifications = try notificationServer()
        // Nothing listens on the discard port: the camera is refused, again and again.
        let door = Printer(name: "Door", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:9/live")], notifies: true)
        let (config, state) = try directories(with: [door])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            let watch = try XCTUnwrap(app.preferences.cameraLoss)
            watch.minute = 1
            var preferences = app.library.config.preferences
            preferences.cameraLostMinutes = 2
            preferences.notifiedEvents.remove(.cameraLost)
            app.library.setPreferences(preferences)
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                if case .reconnecting = page.state { return true }
                return false
            }, "\(page.state)")
            XCTAssertFalse(iterateMainContext(timeout: 4) { !notifications.events(named: "notification").isEmpty }, "Camera Lost is off")

            // Switched on: the camera has been lost long enough already; told once.
            preferences.notifiedEvents.insert(.cameraLost)
            app.library.setPreferences(preferences)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !notifications.events(named: "notification").isEmpty })
            let told = notifications.events(named: "notification")
            XCTAssertEqual(told.first?.string("title"), "The camera of “Door” has been lost for 2 minutes")
            XCTAssertEqual(told.first?.string("body"), "Layerwatch keeps trying to reconnect.")
            XCTAssertEqual(told.first?.string("id"), "printer-\(door.id.uuidString)")
            XCTAssertFalse(iterateMainContext(timeout: 4) { notifications.events(named: "notification").count > 1 }, "once")
            window.close()
        }
    }
}
