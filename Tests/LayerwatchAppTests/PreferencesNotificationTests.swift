import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// The Notifications page obeyed, against a fake Bambu P1S (mosquitto) and a notification server
/// on the test bus: an event switched off is not notified while one switched on is, and a failure
/// is urgent only with Sound on Failure.
final class PreferencesNotificationTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAnEventSwitchedOffIsNotNotifiedAndAFailureIsUrgentOnlyWithSound() throws {
        let notifications = try notificationServer()
        let (mqtt, printer) = try fakeP1S(code: "27182818", on: randomLoopbackAddress())
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            let strip = try XCTUnwrap(window.tabs.selected).status.strip
            XCTAssertTrue(iterateMainContext(timeout: 20) { strip.stateText == "Idle" })
            @MainActor func report(_ fields: [String: Any], shows state: String) {
                mqtt.send(["cmd": "set", "print": fields])
                XCTAssertTrue(iterateMainContext(timeout: 10) { strip.stateText == state }, "\(fields)")
            }
            @MainActor func sent() -> [TestServer.Event] { notifications.events(named: "notification") }

            app.showPreferences()
            let preferences = try XCTUnwrap(app.preferences.window).window
            XCTAssertEqual(PreferencesWidgets.flip("Print Finished", in: preferences), false)
            report(["gcode_state": "RUNNING", "subtask_name": "Gearbox", "mc_percent": 10], shows: "Printing")
            report(["gcode_state": "FINISH", "mc_percent": 100], shows: "Finished")
            XCTAssertFalse(iterateMainContext(timeout: 8) { !sent().isEmpty }, "Print Finished is off: \(sent().map(\.fields))")

            report(["gcode_state": "RUNNING", "subtask_name": "Lid", "mc_percent": 5], shows: "Printing")
            report(["gcode_state": "FAILED", "print_error": 0x0300_4006], shows: "Failed")
            XCTAssertTrue(iterateMainContext(timeout: 10) { sent().count == 1 }, "Print Failed is on")
            XCTAssertEqual(sent().last?.string("title"), "Bench P1S: print failed")
            XCTAssertEqual(sent().last?.string("priority"), "urgent", "Sound on Failure is on by default")

            XCTAssertEqual(PreferencesWidgets.flip("Sound on Failure", in: preferences), false)
            report(["gcode_state": "RUNNING", "subtask_name": "Hinge", "mc_percent": 5, "print_error": 0], shows: "Printing")
            report(["gcode_state": "FAILED", "print_error": 0x0300_4006], shows: "Failed")
            XCTAssertTrue(iterateMainContext(timeout: 10) { sent().count == 2 })
            XCTAssertEqual(sent().last?.string("priority"), "high", "without the sound: important, not urgent")

            // A cancelled print: its own switch.
            XCTAssertEqual(PreferencesWidgets.flip("Print Cancelled", in: preferences), false)
            report(["gcode_state": "RUNNING", "subtask_name": "Knob", "mc_percent": 5, "print_error": 0], shows: "Printing")
            report(["gcode_state": "FAILED", "print_error": 0x0300_400C], shows: "Cancelled")
            XCTAssertFalse(iterateMainContext(timeout: 8) { sent().count > 2 }, "Print Cancelled is off: \(sent().map(\.fields))")
            window.close()
        }
    }
}
