import CGtk
import Foundation
import GtkKit
import JournalKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// The Print Journal group of the Preferences against the whole app: the disk-use row tells the
/// size of the pictures on disk, and choosing 30 days deletes at once the picture of a print that
/// ended before, keeping the print, the newer picture and the choice in printers.json; choosing a
/// size limit of 500 MB deletes the oldest picture of pictures taking more (sparse files: their
/// size is what counts, not the disk they hold).
final class JournalRetentionPreferencesTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheDiskUseIsShownAndThirtyDaysPrunesAnOldPicture() throws {
        let directory = try makeTemporaryDirectory()
        let journal = JournalStore(url: directory.appendingPathComponent("state/journal.sqlite3"))
        let pictures = journal.picturesFolder
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let old = pictures.appendingPathComponent("old.jpg"), recent = pictures.appendingPathComponent("recent.jpg")
        try Data(repeating: 0xD8, count: 300_000).write(to: old)
        try Data(repeating: 0xD8, count: 1_234_567).write(to: recent)
        let now = Date()
        for (key, days, picture) in [("old", 60.0, old), ("recent", 5.0, recent)] {
            let ended = now.addingTimeInterval(-days * 86400)
            journal.record(JournalPrint(key: key, printerID: "p1", printerName: "Voron", job: "\(key).gcode",
                                        started: ended.addingTimeInterval(-3600), ended: ended, result: .finished, finalPicture: picture))
        }
        journal.close()

        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            app.showPreferences()
            let preferences = try XCTUnwrap(app.preferences.window).window
            let diskUse = try XCTUnwrap(PreferencesWidgets.row(titled: "Disk Use", in: preferences))
            PreferencesWidgets.show(diskUse, in: preferences)
            @MainActor func shown() -> String? { adw_action_row_get_subtitle(gcast(diskUse)).map { String(cString: $0) } }
            @MainActor func told(_ bytes: Int) -> String { "\(String(takingGLibString: g_format_size(guint64(bytes))) ?? "") of pictures" }

            let both = try Self.bytes(of: old) + Self.bytes(of: recent)
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown() == told(both) }, "kept 90 days: both pictures counted, shown \(shown() ?? "nil")")
            XCTAssertTrue(FileManager.default.fileExists(atPath: old.path), "60 days old is kept 90 days")
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("journal-retention-90")

            let keep = try XCTUnwrap(PreferencesWidgets.row(titled: "Keep Pictures", in: preferences))
            XCTAssertEqual(adw_combo_row_get_selected(gcast(keep)), 1, "90 days by default")
            adw_combo_row_set_selected(gcast(keep), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { !FileManager.default.fileExists(atPath: old.path) }, "30 days: the old picture is deleted")
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown() == told(both - 300_000) }, "the disk use follows, shown \(shown() ?? "nil")")
            let store = try XCTUnwrap(app.journal?.store)
            XCTAssertNotNil(store.print(key: "old"), "the print stays")
            XCTAssertNil(store.print(key: "old")?.finalPicture)
            XCTAssertEqual(store.print(key: "recent")?.finalPicture, recent)
            XCTAssertTrue(FileManager.default.fileExists(atPath: recent.path))
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.preferences.keepPicturesDays, 30)
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("journal-retention-30")
            gtk_window_destroy(gcast(preferences))
        }
    }

    func testASizeLimitOf500MBDeletesTheOldestPicture() throws {
        let directory = try makeTemporaryDirectory()
        let journal = JournalStore(url: directory.appendingPathComponent("state/journal.sqlite3"))
        let pictures = journal.picturesFolder
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let older = pictures.appendingPathComponent("older.jpg"), newer = pictures.appendingPathComponent("newer.jpg")
        for (file, size) in [(older, 400_000_000), (newer, 200_000_000)] {
            XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data([0xFF, 0xD8])))
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
        }
        let now = Date()
        for (key, days, picture) in [("older", 20.0, older), ("newer", 2.0, newer)] {
            let ended = now.addingTimeInterval(-days * 86400)
            journal.record(JournalPrint(key: key, printerID: "p1", printerName: "Voron", job: "\(key).gcode",
                                        started: ended.addingTimeInterval(-3600), ended: ended, result: .finished, finalPicture: picture))
        }
        journal.close()

        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            app.showPreferences()
            let preferences = try XCTUnwrap(app.preferences.window).window
            let limit = try XCTUnwrap(PreferencesWidgets.row(titled: "Size Limit", in: preferences))
            let diskUse = try XCTUnwrap(PreferencesWidgets.row(titled: "Disk Use", in: preferences))
            PreferencesWidgets.show(diskUse, in: preferences)
            @MainActor func shown() -> String? { adw_action_row_get_subtitle(gcast(diskUse)).map { String(cString: $0) } }
            @MainActor func told(_ bytes: Int) -> String { "\(String(takingGLibString: g_format_size(guint64(bytes))) ?? "") of pictures" }

            XCTAssertEqual(adw_combo_row_get_selected(gcast(limit)), 1, "1 GB by default")
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown() == told(600_000_000) }, "both kept under 1 GB, shown \(shown() ?? "nil")")
            XCTAssertTrue(FileManager.default.fileExists(atPath: older.path))

            adw_combo_row_set_selected(gcast(limit), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { !FileManager.default.fileExists(atPath: older.path) }, "500 MB: the oldest goes")
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown() == told(200_000_000) }, "the disk use follows, shown \(shown() ?? "nil")")
            let store = try XCTUnwrap(app.journal?.store)
            XCTAssertNotNil(store.print(key: "older"), "the print stays")
            XCTAssertNil(store.print(key: "older")?.finalPicture)
            XCTAssertEqual(store.print(key: "newer")?.finalPicture, newer)
            XCTAssertTrue(FileManager.default.fileExists(atPath: newer.path))
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.preferences.picturesLimitMB, 500)
            gtk_widget_set_size_request(preferences, -1, 900)  // the whole group on screen
            _ = iterateMainContext(timeout: 2) { false }
            Screen.save("journal-size-limit-500")
            gtk_window_destroy(gcast(preferences))
        }
    }

    private static func bytes(of file: URL) throws -> Int {
        try XCTUnwrap(file.resourceValues(forKeys: [.fileSizeKey]).fileSize)
    }
}
