import CGtk
import Foundation
import GtkKit
@testable import JournalKit
import JournalSamples
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// The History page in the real app under Xvfb, on a journal generated in the test's own
/// directory: Ctrl+H, the rows newest first under their days' headings, the filters and the
/// search, the prints ended since a time, a print's page and back, a print recorded while it
/// shows, and ten thousand prints.
final class HistoryPageTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// Starts the app with a journal of `count` generated prints, one every `spacing` seconds back
    /// from now, and no printer.
    @MainActor
    private func startApp(prints count: Int, spacing: TimeInterval = 7 * 3600, picture: (Int, Int) = (320, 240))
        throws -> (LayerwatchApplication, MainWindow, [JournalPrint]) {
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [], window: .init(width: 1100, height: 900, maximized: false)))
        let journal = appJournalFile(in: directory)
        try FileManager.default.createDirectory(at: journal.deletingLastPathComponent(), withIntermediateDirectories: true)
        let prints = try GeneratedJournal.write(count: count, to: journal, spacing: spacing, picture: picture)
        let (app, window) = try LayerwatchAppTests.startApp(in: directory)
        return (app, window, prints)
    }

    private func xid(of window: MainWindow) -> UInt {
        MainActor.assumeIsolated { UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window)))) }
    }

    func testCtrlHListsThePrintsNewestFirstUnderTheirDays() throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        try MainActor.assumeIsolated {
            let (_, window, prints) = try startApp(prints: 12)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 })
            XCTAssertFalse(window.isHistoryShown)
            XCTAssertEqual(Keyboard.press("ctrl+h", window: xid(of: window)), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isHistoryShown }, "Ctrl+H shows the page")
            let page = try XCTUnwrap(window.history)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.boundRows.count >= 5 }, "rows: \(page.list.boundRows.count)")
            let rows = page.list.boundRows
            XCTAssertEqual(rows.map { labelText($0.job) }, prints.prefix(rows.count).map { $0.job! }, "newest first")
            for (index, row) in rows.enumerated() {
                let print = prints[index]
                let firstOfDay = index == 0 || !Calendar.current.isDate(prints[index - 1].started, inSameDayAs: print.started)
                XCTAssertEqual(gtk_widget_get_visible(row.heading) != 0, firstOfDay, "heading of row \(index)")
                if firstOfDay { XCTAssertEqual(labelText(row.heading), HistoryText.day(print.started)) }
                XCTAssertEqual(labelText(row.result), HistoryText.result(of: print))
                XCTAssertTrue(labelText(row.details).hasPrefix(print.printerName + " · "), labelText(row.details))
            }
            // The newest print started 7 h ago: yesterday, before 07:00.
            XCTAssertEqual(labelText(rows[0].heading), Calendar.current.isDateInToday(prints[0].started) ? "Today" : "Yesterday")
            XCTAssertTrue(rows.contains { labelText($0.heading) == "Yesterday" }, "12 prints 7 h apart reach yesterday")
            XCTAssertTrue(rows.contains { labelText($0.result) == "Failed: Filament runout" }, "a failure in the printer's words")
            // The thumbnails load as the rows show: the final picture, scaled down.
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_picture_get_paintable(gcast(rows[0].picture)) != nil }, "a thumbnail")
            let thumbnail = try XCTUnwrap(gtk_picture_get_paintable(gcast(rows[0].picture)))
            XCTAssertEqual(gdk_paintable_get_intrinsic_width(thumbnail), 192, "the 320×240 picture scaled into 192×144")
            XCTAssertEqual(gdk_paintable_get_intrinsic_height(thumbnail), 144)
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("history-page")  // /tmp/layerwatch-history-page.png
            copyScreenshot("history-page")
            XCTAssertEqual(String(cString: gtk_window_get_title(gcast(window.window))), "History — Layerwatch")
            // Ctrl+F: the keyboard in the search.
            @MainActor func searchHasFocus() -> Bool {
                gtk_root_get_focus(gcast(window.window)).map { gtk_widget_is_ancestor($0, page.search) != 0 } ?? false
            }
            XCTAssertFalse(searchHasFocus(), "the keyboard is in the list")
            XCTAssertEqual(Keyboard.press("ctrl+f", window: xid(of: window)), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { searchHasFocus() }, "Ctrl+F")
            XCTAssertEqual(Keyboard.press("ctrl+h", window: xid(of: window)), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !window.isHistoryShown && !window.isFarmShown }, "again: back to the tabs")
        }
    }

    func testFiltersAndSearchNarrowTheList() throws {
        try MainActor.assumeIsolated {
            let (_, window, prints) = try startApp(prints: 40, spacing: 3600)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.showHistory(true)
            let page = try XCTUnwrap(window.history)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !page.list.boundRows.isEmpty && page.printers.count == 3 })
            XCTAssertEqual(page.printers.map(\.name), ["Bambu P1S", "Prusa MK4", "Voron"], "the journal's printers, by name")
            // By printer: Prusa MK4's prints only.
            gtk_drop_down_set_selected(gcast(page.printerChoice), 2)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.prints.count == prints.filter { $0.printerName == "Prusa MK4" }.count })
            XCTAssertEqual(Set(page.list.prints.map(\.printerName)), ["Prusa MK4"])
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.boundRows.allSatisfy { labelText($0.details).hasPrefix("Prusa MK4 · ") } })
            // And by result: its failed ones.
            gtk_drop_down_set_selected(gcast(page.resultChoice), 2)
            let failed = prints.filter { $0.printerName == "Prusa MK4" && $0.result == .failed }
            XCTAssertFalse(failed.isEmpty)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.prints.map(\.key) == failed.map(\.key) }, "\(page.list.prints.map(\.job))")
            // All printers and results, searched by job name.
            gtk_drop_down_set_selected(gcast(page.printerChoice), 0)
            gtk_drop_down_set_selected(gcast(page.resultChoice), 0)
            gtk_editable_set_text(gcast(page.search), "part-1")
            let found = prints.filter { $0.job!.contains("part-1") }
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.prints.map(\.key) == found.map(\.key) }, "\(page.list.prints.map(\.job))")
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.boundRows.map { labelText($0.job) } == found.prefix(page.list.boundRows.count).map { $0.job! } })
            // Nothing found: the empty page says so.
            gtk_editable_set_text(gcast(page.search), "benchy")
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.prints.isEmpty && gtk_widget_get_mapped(page.empty) != 0 })
            XCTAssertEqual(String(cString: adw_status_page_get_title(gcast(page.empty))), "No Matching Prints")
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("history-page-no-match")
            copyScreenshot("history-page-no-match")
        }
    }

    func testAnEmptyJournalSaysNoPrintsYet() throws {
        try MainActor.assumeIsolated {
            let (_, window, _) = try startApp(prints: 0)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.showHistory(true)
            let page = try XCTUnwrap(window.history)
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(page.empty) != 0 })
            XCTAssertEqual(String(cString: adw_status_page_get_title(gcast(page.empty))), "No Prints Yet")
        }
    }

    /// `win.show-history-since` (J3's banner): only the prints ended since then, a chip saying
    /// so, and removing the chip lists them all.
    func testShowHistorySinceListsOnlyThePrintsEndedSince() throws {
        try MainActor.assumeIsolated {
            let (_, window, prints) = try startApp(prints: 30, spacing: 3600)
            defer { gtk_window_destroy(gcast(window.window)) }
            let since = Date().addingTimeInterval(-10 * 3600)
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(window.window, "win.show-history-since",
                                                                              g_variant_new_int64(gint64(since.timeIntervalSince1970)))))
            XCTAssertTrue(window.isHistoryShown)
            let page = try XCTUnwrap(window.history)
            let ended = prints.filter { $0.ended! >= since }
            XCTAssertFalse(ended.isEmpty)
            XCTAssertLessThan(ended.count, 15)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.prints.map(\.key) == ended.map(\.key) }, "\(page.list.prints.map(\.job))")
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.boundRows.count == ended.count })
            XCTAssertTrue(gtk_widget_get_mapped(page.sinceChip) != 0)
            // Ten hours ago is yesterday before 10:00: the chip then names the day.
            XCTAssertEqual(labelText(page.sinceLabel),
                           (Calendar.current.isDateInToday(since) ? "Since " : "Since Yesterday ") + HistoryText.time(since))
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("history-page-since")
            copyScreenshot("history-page-since")
            page.show(endedSince: nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.prints.count == 30 })
            XCTAssertFalse(gtk_widget_get_visible(page.sinceChip) != 0)
        }
    }

    func testARowOpensThePrintsPageAndEscapeReturns() throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        try MainActor.assumeIsolated {
            let (_, window, prints) = try startApp(prints: 8)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 })
            window.showHistory(true)
            let page = try XCTUnwrap(window.history)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.boundRows.count >= 3 })
            // What a click on the third row (or Enter on it) does.
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(page.list.view, "list.activate-item", g_variant_new_uint32(2))))
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.isPrintShown }, "activating a row opens the print's page")
            XCTAssertEqual(labelText(page.printTitle), prints[2].job)
            let printPage = try XCTUnwrap(page.printPage?.widget)
            XCTAssertEqual(String(cString: adw_preferences_page_get_title(gcast(printPage))), prints[2].job, "the page of that print")
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("history-page-print")
            copyScreenshot("history-page-print")
            XCTAssertEqual(Keyboard.press("Escape", window: xid(of: window)), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !page.isPrintShown }, "Escape: back to the list")
            XCTAssertTrue(window.isHistoryShown)
            page.open(prints[0])
            XCTAssertTrue(page.isPrintShown)
            XCTAssertEqual(Keyboard.press("alt+Left", window: xid(of: window)), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !page.isPrintShown }, "Alt+Left: back to the list")
        }
    }

    /// A print the journal records while the page shows appears at the top, the rows below kept.
    func testTheListFollowsANewlyRecordedPrint() throws {
        try MainActor.assumeIsolated {
            let (app, window, prints) = try startApp(prints: 5)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.showHistory(true)
            let page = try XCTUnwrap(window.history)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.boundRows.count == 5 })
            let store = try XCTUnwrap(app.journal?.store)
            let new = JournalPrint(key: "voron/new", printerID: "printer-0", printerName: "Voron", job: "benchy.gcode", started: Date())
            store.record(new)
            XCTAssertTrue(iterateMainContext(timeout: 5) { page.list.boundRows.first.map { labelText($0.job) } == "benchy.gcode" },
                          "\(page.list.boundRows.map { labelText($0.job) })")
            XCTAssertEqual(labelText(page.list.boundRows[0].result), "Under way")
            XCTAssertEqual(page.list.prints.map(\.key), [new.key] + prints.map(\.key))
            // It ends: its row says so.
            var ended = new
            ended.ended = Date()
            store.write { try $0.end(ended.key, result: .finished, at: ended.ended!, error: nil, layer: nil, totalLayers: nil, filamentUsed: nil) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { labelText(page.list.boundRows[0].result) == "Finished" })
        }
    }

    /// Ten thousand prints: the page shows the newest rows at once from one page read, and
    /// scrolling down reads the next pages as they come into view.
    func testTenThousandPrintsShowRowsAPageAtATime() throws {
        try MainActor.assumeIsolated {
            // One every ten minutes: 69 days, all with their pictures (90 days are kept).
            let (_, window, prints) = try startApp(prints: 10_000, spacing: 600, picture: (160, 120))
            defer { gtk_window_destroy(gcast(window.window)) }
            window.showHistory(true)
            let page = try XCTUnwrap(window.history)
            XCTAssertTrue(iterateMainContext(timeout: 20) { page.list.boundRows.count >= 5 })
            XCTAssertEqual(page.list.boundRows.prefix(5).map { labelText($0.job) }, prints.prefix(5).map { $0.job! })
            XCTAssertEqual(page.list.prints.count, HistoryList.pageSize, "one page read, not ten thousand prints")
            let adjustment = try XCTUnwrap(gtk_scrolled_window_get_vadjustment(gcast(page.list.widget)))
            // Scrolled down, the next pages are read as their rows come into view.
            for pages in 2...5 {
                XCTAssertTrue(iterateMainContext(timeout: 20) {
                    gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))  // as the list grows
                    return page.list.prints.count == pages * HistoryList.pageSize
                }, "page \(pages): \(page.list.prints.count) read")
            }
            XCTAssertTrue(iterateMainContext(timeout: 20) {
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
                return page.list.boundRows.contains { labelText($0.job) == prints[499].job }
            }, "the 500th print's row")
            for row in page.list.boundRows {
                XCTAssertEqual(labelText(row.job), prints[row.position].job, "row \(row.position) shows its print")
            }
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("history-page-end")
            copyScreenshot("history-page-end")
        }
    }
}

/// A label's text.
@MainActor
private func labelText(_ label: UnsafeMutablePointer<GtkWidget>) -> String {
    String(cString: gtk_label_get_text(gcast(label)))
}

/// Copies the screenshot `Screen.save(name)` took to /tmp/NAME.png.
private func copyScreenshot(_ name: String) {
    try? FileManager.default.removeItem(atPath: "/tmp/\(name).png")
    try? FileManager.default.copyItem(atPath: "/tmp/layerwatch-\(name).png", toPath: "/tmp/\(name).png")
}
