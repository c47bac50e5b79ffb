import CGtk
import Foundation
import GtkKit
import JournalKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import TestSupport
import XCTest

/// "While you were away": the window left (minimised by a real window manager, or closed to the
/// background, or Layerwatch started there) while a real Moonraker peer ends prints, then back —
/// the banner counts what ended, by result, and its Show button leads to the History page with
/// the time the user left; coming back sooner than the threshold, or with nothing ended, shows
/// nothing. The clock is the watch's own, moved on rather than waited for.
final class JournalAwayTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// A Moonraker peer and the Klipper printer (no camera) on it.
    private func klipper() throws -> (TestServer, Printer) {
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock { moonraker.stop() }
        moonraker.send(["cmd": "webcams", "list": [Any]()])
        return (moonraker, Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port, notifies: false))
    }

    /// The app on `printer`, its window active, its status idle.
    @MainActor
    private func start(_ printer: Printer) throws -> (LayerwatchApplication, MainWindow) {
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], backgroundNoticeShown: true))
        let (app, window) = try startApp(in: directory)
        XCTAssertTrue(iterateMainContext(timeout: 10) { Self.isActive(window) }, "the window is active")
        XCTAssertTrue(iterateMainContext(timeout: 15) { app.statusHub.latest(printer.id)?.status?.state == .idle })
        return (app, window)
    }

    /// Runs a print of `job` on `moonraker` to its `end` (Klipper's print_stats state), as the app sees it.
    @MainActor
    private func print(_ job: String, ending end: String, on moonraker: TestServer, app: LayerwatchApplication, printer: Printer) {
        let journal = app.journal!.store
        let ended = journal.endings(since: .distantPast).values.reduce(0, +)
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": job, "print_duration": 60]]])
        XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(printer.id)?.status?.state == .printing }, job)
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": end]]])
        XCTAssertTrue(iterateMainContext(timeout: 10) { journal.endings(since: .distantPast).values.reduce(0, +) == ended + 1 },
                      "\(job) ended in the journal")
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "standby", "filename": ""]]])
        XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(printer.id)?.status?.state == .idle })
    }

    /// The app on `klipper()`'s printer under a real window manager (minimising is its to do), its
    /// window active and its away watch on a clock the test moves; runs `body`, then closes the window.
    private func withAwayApp(_ body: @MainActor (_ moonraker: TestServer, _ printer: Printer, _ app: LayerwatchApplication,
                                                 _ window: MainWindow, _ clock: AwayClock) throws -> Void) throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        let (moonraker, printer) = try klipper()
        try MainActor.assumeIsolated {
            let (app, window) = try start(printer)
            defer { gtk_window_destroy(gcast(window.window)) }
            try body(moonraker, printer, app, window, try AwayClock(of: app))
        }
    }

    @MainActor
    private static func isActive(_ window: MainWindow) -> Bool {
        Bool(gboolean: gtk_window_is_active(gcast(window.window)))
    }

    /// The user leaves `window`: the window manager minimises it.
    @MainActor
    private static func leave(_ window: MainWindow, file: StaticString = #filePath, line: UInt = #line) {
        gtk_window_minimize(gcast(window.window))
        XCTAssertTrue(iterateMainContext(timeout: 5) { !isActive(window) }, "left", file: file, line: line)
    }

    /// The user comes back to `window`.
    @MainActor
    private static func comeBack(_ window: MainWindow, file: StaticString = #filePath, line: UInt = #line) {
        gtk_window_present(gcast(window.window))
        XCTAssertTrue(iterateMainContext(timeout: 5) { isActive(window) }, "back", file: file, line: line)
    }

    /// The banner button's action and its parameter.
    @MainActor
    private static func action(of window: MainWindow) -> (name: String?, target: Int64?) {
        let button = window.bannerButton
        let name = gtk_actionable_get_action_name(gcast(button)).map { String(cString: $0) }
        let target = gtk_actionable_get_action_target_value(gcast(button)).map { Int64(g_variant_get_int64($0)) }
        return (name, target)
    }

    func testBackAfterTenMinutesTheBannerCountsWhatEndedAndLeadsToIt() throws {
        try withAwayApp { moonraker, printer, app, window, clock in

            let before = Int64(Date().timeIntervalSince1970.rounded(.down))
            Self.leave(window)
            let after = Int64(Date().timeIntervalSince1970.rounded(.up))
            print("gear.gcode", ending: "complete", on: moonraker, app: app, printer: printer)
            print("bracket.gcode", ending: "error", on: moonraker, app: app, printer: printer)
            print("hook.gcode", ending: "complete", on: moonraker, app: app, printer: printer)
            print("clip.gcode", ending: "cancelled", on: moonraker, app: app, printer: printer)

            clock.moved = clock.threshold
            Self.comeBack(window)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.bannerText != nil }, "a banner")
            XCTAssertEqual(window.bannerText, "While you were away: 2 finished, 1 failed, 1 cancelled")
            XCTAssertTrue(Bool(gboolean: gtk_widget_get_visible(window.bannerButton)))
            XCTAssertEqual(String(cString: gtk_button_get_label(gcast(window.bannerButton))), "Show")
            let (name, target) = Self.action(of: window)
            XCTAssertEqual(name, "win.show-history-since")
            let left = try XCTUnwrap(target)
            XCTAssertTrue((before...after).contains(left), "the time the window was left: \(left), between \(before) and \(after)")
            // The printer's tab, with no camera, shows its last print under its placeholder.
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.lastPrint?.text?.hasPrefix("Last print: clip.gcode · cancelled ") == true },
                          page.lastPrint?.text ?? "no last print")
            _ = iterateMainContext(timeout: 1) { false }  // the banner slides in
            Screen.save("journal-away")

            // Show opens the History page with the prints that ended since the user left.
            XCTAssertTrue(Bool(gboolean: gtk_widget_get_sensitive(window.bannerButton)))
            Self.click(window.bannerButton)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isHistoryShown }, "Show opens the History page")
            let history = try XCTUnwrap(window.history)
            XCTAssertTrue(iterateMainContext(timeout: 5) { history.list.prints.count == 4 }, "\(history.list.prints.map(\.job))")
            XCTAssertEqual(Set(history.list.prints.compactMap(\.job)), ["gear.gcode", "bracket.gcode", "hook.gcode", "clip.gcode"])
            XCTAssertTrue(history.list.prints.allSatisfy { ($0.ended?.timeIntervalSince1970 ?? 0) >= Double(left) })
            XCTAssertTrue(gtk_widget_get_visible(history.sinceChip) != 0, "the page says why the list is short")
            XCTAssertNil(window.bannerText, "shown, the news is done with")
        }
    }

    func testBackSoonerOrWithNothingEndedShowsNothing() throws {
        try withAwayApp { moonraker, printer, app, window, clock in

            // Nine minutes away, while a print ended: nothing.
            Self.leave(window)
            print("gear.gcode", ending: "complete", on: moonraker, app: app, printer: printer)
            clock.moved = clock.threshold - 60
            Self.comeBack(window)
            XCTAssertFalse(iterateMainContext(timeout: 2) { window.bannerText != nil }, "\(window.bannerText ?? "")")

            // Away long enough, but nothing ended meanwhile: nothing.
            Self.leave(window)
            clock.moved += clock.threshold
            Self.comeBack(window)
            XCTAssertFalse(iterateMainContext(timeout: 2) { window.bannerText != nil }, "\(window.bannerText ?? "")")
        }
    }

    func testBackFromTheBackgroundTheBannerTellsWhatEndedWhateverTheTime() throws {
        let windowManager = try WindowManager()
        let (moonraker, printer) = try klipper()
        try MainActor.assumeIsolated {
            let (app, window) = try start(printer)
            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil })
            XCTAssertTrue(app.background.isHeld, "in the background")
            print("gear.gcode", ending: "complete", on: moonraker, app: app, printer: printer)

            app.activate()  // a launch, or a notification's click, brings the window back
            let back = try XCTUnwrap(app.window)
            defer { app.quit() }
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.isActive(back) })
            XCTAssertTrue(iterateMainContext(timeout: 5) { back.bannerText != nil }, "a banner, seconds after")
            XCTAssertEqual(back.bannerText, "While you were away: 1 finished")
            XCTAssertEqual(Self.action(of: back).name, "win.show-history-since")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testStartedInTheBackgroundTheWindowTellsWhatEndedSince() throws {
        let windowManager = try WindowManager()
        let (moonraker, printer) = try klipper()
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], backgroundNoticeShown: true))
        try MainActor.assumeIsolated {
            // As `layerwatch --background` does: no window, the printers watched.
            let app = registeredApp(config: directory, state: directory.appendingPathComponent("state"))
            app.background.startInBackground()
            defer { app.quit() }
            XCTAssertTrue(iterateMainContext(timeout: 15) { app.statusHub.latest(printer.id)?.status?.state == .idle })
            XCTAssertNil(app.window)
            print("bracket.gcode", ending: "error", on: moonraker, app: app, printer: printer)

            app.activate()
            let window = try XCTUnwrap(app.window)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.isActive(window) })
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.bannerText != nil }, "a banner")
            XCTAssertEqual(window.bannerText, "While you were away: 1 failed")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testALeanRestartHandsOverWhenTheUserLeft() throws {
        // The process before the restart: the user left five minutes ago, a print ended two
        // minutes ago, in the journal it leaves behind.
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(backgroundNoticeShown: true))
        let state = directory.appendingPathComponent("state")
        let left = Date().addingTimeInterval(-300)
        let ended = Date().addingTimeInterval(-120)
        fillAppJournal(in: directory) { journal in
            journal.record(JournalPrint(key: "voron/job-id/7", printerID: "voron", printerName: "Voron", job: "gear.gcode", printerJobID: "7",
                                        started: ended.addingTimeInterval(-3600), ended: ended, result: .finished))
        }
        let windowManager = try WindowManager()
        try MainActor.assumeIsolated {
            setenv(AwayWatch.handOverVariable, String(left.timeIntervalSince1970), 1)
            defer { unsetenv(AwayWatch.handOverVariable) }
            // `layerwatch --background`, as the restart runs it.
            let app = registeredApp(config: directory, state: state)
            XCTAssertNil(ProcessInfo.processInfo.environment[AwayWatch.handOverVariable], "taken, not passed on to what it starts")
            app.background.startInBackground()
            defer { app.quit() }
            app.activate()
            let window = try XCTUnwrap(app.window)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Self.isActive(window) })
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.bannerText != nil }, "a banner")
            XCTAssertEqual(window.bannerText, "While you were away: 1 finished")
            XCTAssertEqual(Self.action(of: window).target, Int64(left.timeIntervalSince1970.rounded(.down)), "since the user left")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testAJournalProblemIsNotLostToTheNews() throws {
        try withAwayApp { moonraker, printer, app, window, clock in
            Self.leave(window)
            print("gear.gcode", ending: "complete", on: moonraker, app: app, printer: printer)
            window.showBanner("The print journal could not be read.")
            clock.moved = clock.threshold
            Self.comeBack(window)
            _ = iterateMainContext(timeout: 2) { false }  // the news is read
            XCTAssertEqual(window.bannerText, "The print journal could not be read.", "the problem first")
            XCTAssertFalse(Bool(gboolean: gtk_widget_get_visible(window.bannerButton)), "a problem has no Show")
            Screen.save("journal-away-problem")
            try Self.dismiss(window)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.bannerText != "The print journal could not be read." })
            XCTAssertEqual(window.bannerText, "While you were away: 1 finished", "then the news")
            XCTAssertTrue(Bool(gboolean: gtk_widget_get_visible(window.bannerButton)))
            try Self.dismiss(window)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.bannerText == nil })
        }
    }

    /// Clicks the banner's Dismiss.
    @MainActor
    private static func dismiss(_ window: MainWindow) throws {
        let dismiss = try XCTUnwrap(gtk_widget_get_next_sibling(window.bannerButton))
        XCTAssertEqual(String(cString: gtk_button_get_label(gcast(dismiss))), "Dismiss")
        click(dismiss)
    }

    /// Clicks `button` with the pointer, as the user does.
    @MainActor
    private static func click(_ button: UnsafeMutablePointer<GtkWidget>) {
        _ = Pointer(widget: button).at(Double(gtk_widget_get_width(button)) / 2, Double(gtk_widget_get_height(button)) / 2,
                                       then: ["click", "1"])
    }
}

/// The app's away watch on a clock the test moves on (`moved` seconds ahead of the real one)
/// rather than waits for.
@MainActor
private final class AwayClock {
    /// How long the user must have been away for news (`AwayWatch.threshold`).
    let threshold: TimeInterval
    var moved: TimeInterval = 0

    init(of app: LayerwatchApplication) throws {
        let away = try XCTUnwrap(app.away)
        threshold = away.threshold
        away.clock = { [self] in Date().addingTimeInterval(moved) }
    }
}
