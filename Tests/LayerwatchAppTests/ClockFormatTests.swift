import CGtk
import GtkKit
@testable import LayerwatchApp
import StatusKit
import TestSupport
import XCTest

/// The print's end time on the desktop's clock: GNOME's clock-format read and followed (on a
/// memory settings backend, never the user's), a 24- or 12-hour time whatever the locale, and no
/// crash where the schema is missing.
final class ClockFormatTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheEndTimeFollowsTheDesktopsClockFormat() throws {
        try MainActor.assumeIsolated {
            let backend = try XCTUnwrap(g_memory_settings_backend_new())
            defer { g_object_unref(UnsafeMutableRawPointer(backend)) }
            let desktop = try XCTUnwrap(g_settings_new_with_backend("org.gnome.desktop.interface", backend))
            defer { g_object_unref(UnsafeMutableRawPointer(desktop)) }
            g_settings_set_string(desktop, "clock-format", "24h")
            let clock = DesktopClock(backend: backend)
            XCTAssertEqual(clock.format, .twentyFourHour)
            var told = 0
            let observation = clock.observe { told += 1 }
            g_settings_set_string(desktop, "clock-format", "12h")
            XCTAssertTrue(iterateMainContext(timeout: 2) { told == 1 }, "a change is told")
            XCTAssertEqual(clock.format, .twelveHour)
            withExtendedLifetime(observation) {}

            XCTAssertNil(DesktopClock(schema: "org.example.NoSuchSchema").format, "no schema: the locale decides")
        }
    }

    func testTheEndTimeIsWordedOnTheClockAsked() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let now = calendar.date(from: DateComponents(year: 2026, month: 11, day: 27, hour: 14, minute: 0))!
        let british = Locale(identifier: "en_GB"), american = Locale(identifier: "en_US")
        XCTAssertEqual(StatusText.finishTime(after: 5400, from: now, clock: .twelveHour, locale: british)
            .lowercased().replacingOccurrences(of: "\u{202F}", with: " "), "3:30 pm", "ICU puts a narrow space before pm")
        XCTAssertEqual(StatusText.finishTime(after: 5400, from: now, clock: .twentyFourHour, locale: american), "15:30")
        XCTAssertEqual(StatusText.finishTime(after: 5400, from: now, locale: british), "15:30", "no setting: the locale's clock")
        XCTAssertTrue(StatusText.finishTime(after: 5400, from: now, locale: american).contains("3:30"))
    }
}
