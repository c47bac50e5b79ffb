import Foundation
import GtkKit
import TestSupport
import XCTest

/// Whether a notification's body must be escaped: only for an `org.freedesktop.Notifications`
/// server that lists `body-markup` (and no GNOME Shell interface beside it, which GLib would take
/// and which reads plain text). Asked of a real server on the test's private session bus.
final class NotificationMarkupTests: XCTestCase {
    func testTheBodyIsMarkupOnlyForAFreedesktopServerThatSaysSo() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a private session bus: run under dbus-run-session (make test)")
        }
        for (arguments, expected) in [(["--freedesktop-only", "--body-markup"], true), (["--freedesktop-only"], false),
                                      (["--body-markup"], false)] {
            let server = try TestServer(script: "notification_server.py", arguments: arguments)
            XCTAssertEqual(DesktopNotification.bodyIsMarkup(), expected, "\(arguments)")
            server.stop()
            XCTAssertTrue(waitUntil(timeout: 5) { !DBusNames.hasOwner("org.freedesktop.Notifications") })
        }
    }
}
