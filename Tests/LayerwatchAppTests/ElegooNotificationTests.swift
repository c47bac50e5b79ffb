import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import TestSupport
import XCTest

/// An Elegoo Centauri Carbon's print ending, as the fake printer pushes it (PrintInfo.Status 9,
/// complete), notified once through the notification server on the test's session bus
/// (notification_server.py), with the printer's name and the job; a stopped one (8) as cancelled,
/// never as a failure.
final class ElegooNotificationTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAFinishedPrintNotifiesOnceAndAStoppedOneAsCancelled() throws {
        let notifications = try notificationServer()
        let (fake, host) = try fakeCentauriCarbon(arguments: ["--interval", "0.3"])
        XCTAssertEqual(fake.perform(["cmd": "set", "fields": ["PrintInfo": ["Status": 13, "Filename": "/local/Vase_PLA.gcode", "Progress": 90,
                                                                            "CurrentLayer": 170, "TotalLayer": 180]]])?.name, "done")
        let (config, state) = try directories(with: [Printer(name: "Carbon", kind: .elegoo, host: host)])
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.status.strip.stateText == "Printing" },
                          "\(String(describing: page.status.strip.stateText))")
            _ = iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 1) { false }  // a state is told once it held
            XCTAssertEqual(fake.perform(["cmd": "set", "fields": ["PrintInfo": ["Status": 9, "Progress": 100]]])?.name, "done")
            XCTAssertTrue(iterateMainContext(timeout: 15) { notifications.events(named: "notification").count == 1 })
            let finished = try XCTUnwrap(notifications.events(named: "notification").first)
            XCTAssertEqual(finished.string("title"), "Carbon: print finished")
            XCTAssertEqual(finished.string("body"), "Vase_PLA.gcode")
            XCTAssertFalse(iterateMainContext(timeout: 4) { notifications.events(named: "notification").count > 1 },
                           "pushed again and again, the same finished print notifies once")

            XCTAssertEqual(fake.perform(["cmd": "set", "fields": ["PrintInfo": ["Status": 13, "Filename": "/local/Gear_PETG.gcode",
                                                                                "Progress": 10]]])?.name, "done")
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.status.strip.stateText == "Printing" })
            _ = iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 1) { false }
            XCTAssertEqual(fake.perform(["cmd": "set", "fields": ["PrintInfo": ["Status": 8]]])?.name, "done")
            XCTAssertTrue(iterateMainContext(timeout: 15) { notifications.events(named: "notification").count == 2 })
            let stopped = try XCTUnwrap(notifications.events(named: "notification").last)
            XCTAssertEqual(stopped.string("title"), "Carbon: print cancelled", "a stop on the printer is no failure")
            XCTAssertEqual(stopped.string("body"), "Gear_PETG.gcode", "the job kept while the firmware blanks its name")
        }
    }
}
