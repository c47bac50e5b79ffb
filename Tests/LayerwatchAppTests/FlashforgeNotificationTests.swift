import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import TestSupport
import XCTest

/// A Flashforge printer's print ending, as the fake printer's `/detail` says it (`completed`),
/// notified once through the notification server on the test's session bus
/// (notification_server.py), with the printer's name and the job; an AD5X without a camera, so
/// the notification carries the app's icon.
final class FlashforgeNotificationTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAFinishedPrintNotifiesOnce() throws {
        let notifications = try notificationServer()
        let fake = try TestServer(script: "flashforge_server.py", arguments: ["--serial", "SNAD5X0000002", "--check-code", "27182818"])
        addTeardownBlock { fake.stop() }
        XCTAssertEqual(fake.perform(["cmd": "set", "detail": ["status": "printing", "printFileName": "/data/Vase_PLA.gx",
                                                              "printProgress": 0.9]])?.name, "done")
        let printer = Printer(name: "AD5X", kind: .flashforge, host: "127.0.0.1", apiPort: fake.port, serial: "SNAD5X0000002",
                              accessCode: "27182818")
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.status.strip.stateText == "Printing" },
                          "\(String(describing: page.status.strip.stateText))")
            _ = iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 1) { false }  // a state is told once it held
            XCTAssertEqual(fake.perform(["cmd": "set", "detail": ["status": "completed", "printProgress": 1.0]])?.name, "done")
            XCTAssertTrue(iterateMainContext(timeout: 15) { notifications.events(named: "notification").count == 1 })
            let finished = try XCTUnwrap(notifications.events(named: "notification").first)
            XCTAssertEqual(finished.string("title"), "AD5X: print finished")
            XCTAssertEqual(finished.string("body"), "Vase_PLA.gx")
            XCTAssertFalse(iterateMainContext(timeout: 5) { notifications.events(named: "notification").count > 1 },
                           "polled again and again, the same finished print notifies once")
        }
    }
}
