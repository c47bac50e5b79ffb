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
        let files = try Self.journal(in: directory, pictures: [("old", 60, 300_000), ("recent", 5, 1_234_567)]) { file, bytes in
            try Data(repeating: 0xD8, count: bytes).write(to: file)
        }
        let (old, recent) = (files[0], files[1])

        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let preferences = try PicturesPreferences(of: app)
            defer { gtk_window_destroy(gcast(preferences.window)) }

            let both = try Self.bytes(of: old) + Self.bytes(of: recent)
            XCTAssertTrue(iterateMainContext(timeout: 10) { preferences.shown == PicturesPreferences.told(both) },
                          "kept 90 days: both pictures counted, shown \(preferences.shown ?? "nil")")
            XCTAssertTrue(FileManager.default.fileExists(atPath: old.path), "60 days old is kept 90 days")
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("journal-retention-90")

            let keep = try preferences.row("Keep Pictures")
            XCTAssertEqual(adw_combo_row_get_selected(gcast(keep)), 1, "90 days by default")
            adw_combo_row_set_selected(gcast(keep), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { !FileManager.default.fileExists(atPath: old.path) }, "30 days: the old picture is deleted")
            XCTAssertTrue(iterateMainContext(timeout: 10) { preferences.shown == PicturesPreferences.told(both - 300_000) },
                          "the disk use follows, shown \(preferences.shown ?? "nil")")
            try Self.assertPictureDeleted(of: "old", kept: "recent", picture: recent, in: app)
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.preferences.keepPicturesDays, 30)
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("journal-retention-30")
        }
    }

    func testASizeLimitOf500MBDeletesTheOldestPicture() throws {
        let directory = try makeTemporaryDirectory()
        let files = try Self.journal(in: directory, pictures: [("older", 20, 400_000_000), ("newer", 2, 200_000_000)]) { file, bytes in
            // Sparse: their size is what counts, not the disk they hold.
            XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data([0xFF, 0xD8])))
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: UInt64(bytes))
            try handle.close()
        }
        let (older, newer) = (files[0], files[1])

        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let preferences = try PicturesPreferences(of: app)
            defer { gtk_window_destroy(gcast(preferences.window)) }
            let limit = try preferences.row("Size Limit")

            XCTAssertEqual(adw_combo_row_get_selected(gcast(limit)), 1, "1 GB by default")
            XCTAssertTrue(iterateMainContext(timeout: 10) { preferences.shown == PicturesPreferences.told(600_000_000) },
                          "both kept under 1 GB, shown \(preferences.shown ?? "nil")")
            XCTAssertTrue(FileManager.default.fileExists(atPath: older.path))

            adw_combo_row_set_selected(gcast(limit), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { !FileManager.default.fileExists(atPath: older.path) }, "500 MB: the oldest goes")
            XCTAssertTrue(iterateMainContext(timeout: 10) { preferences.shown == PicturesPreferences.told(200_000_000) },
                          "the disk use follows, shown \(preferences.shown ?? "nil")")
            try Self.assertPictureDeleted(of: "older", kept: "newer", picture: newer, in: app)
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.preferences.picturesLimitMB, 500)
            gtk_widget_set_size_request(preferences.window, -1, 900)  // the whole group on screen
            _ = iterateMainContext(timeout: 2) { false }
            Screen.save("journal-size-limit-500")
        }
    }

    /// The journal of the app started on `directory`, holding a finished print of each of
    /// `pictures` (its key, the days since it ended, the size of its final picture, which `write`
    /// makes in the journal's pictures folder); the pictures, in that order.
    private static func journal(in directory: URL, pictures: [(key: String, days: Double, bytes: Int)],
                                write: (URL, Int) throws -> Void) throws -> [URL] {
        try fillAppJournal(in: directory) { journal in
            try FileManager.default.createDirectory(at: journal.picturesFolder, withIntermediateDirectories: true)
            let now = Date()
            return try pictures.map { key, days, bytes in
                let picture = journal.picturesFolder.appendingPathComponent("\(key).jpg")
                try write(picture, bytes)
                let ended = now.addingTimeInterval(-days * 86400)
                journal.record(JournalPrint(key: key, printerID: "p1", printerName: "Voron", job: "\(key).gcode",
                                            started: ended.addingTimeInterval(-3600), ended: ended, result: .finished, finalPicture: picture))
                return picture
            }
        }
    }

    /// `app`'s journal still holds the print `pruned`, without its final picture now, and the
    /// print `kept` with its `picture`, still on disk.
    @MainActor
    private static func assertPictureDeleted(of pruned: String, kept: String, picture: URL, in app: LayerwatchApplication,
                                             file: StaticString = #filePath, line: UInt = #line) throws {
        let store = try XCTUnwrap(app.journal?.store, file: file, line: line)
        XCTAssertNotNil(store.print(key: pruned), "the print stays", file: file, line: line)
        XCTAssertNil(store.print(key: pruned)?.finalPicture, file: file, line: line)
        XCTAssertEqual(store.print(key: kept)?.finalPicture, picture, file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: picture.path), file: file, line: line)
    }

    private static func bytes(of file: URL) throws -> Int {
        try XCTUnwrap(file.resourceValues(forKeys: [.fileSizeKey]).fileSize)
    }
}

/// The app's Preferences, opened on the Print Journal group's Disk Use row, which tells how much
/// the journal's pictures take.
@MainActor
private struct PicturesPreferences {
    let window: UnsafeMutablePointer<GtkWidget>
    let diskUse: UnsafeMutablePointer<GtkWidget>

    init(of app: LayerwatchApplication) throws {
        app.showPreferences()
        window = try XCTUnwrap(app.preferences.window).window
        diskUse = try XCTUnwrap(PreferencesWidgets.row(titled: "Disk Use", in: window))
        PreferencesWidgets.show(diskUse, in: window)
    }

    /// The row titled `title`.
    func row(_ title: String) throws -> UnsafeMutablePointer<GtkWidget> {
        try XCTUnwrap(PreferencesWidgets.row(titled: title, in: window), title)
    }

    /// What the Disk Use row says.
    var shown: String? { adw_action_row_get_subtitle(gcast(diskUse)).map { String(cString: $0) } }

    /// What it says of `bytes` of pictures.
    static func told(_ bytes: Int) -> String { "\(String(takingGLibString: g_format_size(guint64(bytes))) ?? "") of pictures" }
}
