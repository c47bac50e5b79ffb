import CGtk
import Foundation
import GtkKit
import JournalKit
@testable import LayerwatchApp
import StreamKit
import TestSupport
import XCTest

/// One print's page of the History, built on a real journal in a temporary directory (real JPEG
/// pictures, events and videos added as the app adds them) inside a window of the real app (whose
/// Open action the page's picture and video rows use): what it shows is what the journal holds.
final class HistoryPrintPageTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAFinishedPrintShowsItsFactsPicturesTimelineAndVideos() throws {
        let directory = try makeTemporaryDirectory()
        let store = JournalStore(url: directory.appendingPathComponent("journal/journal.sqlite3"))
        let first = try Self.jpeg(width: 320, height: 240, in: store.picturesFolder, name: "first.jpg")
        let final = try Self.jpeg(width: 640, height: 360, in: store.picturesFolder, name: "final.jpg")
        let started = Date(timeIntervalSince1970: 1_780_000_000)
        let print = JournalPrint(key: "voron/benchy", printerID: "voron", printerName: "Voron & Co", camera: "Nozzle Cam",
                                 job: "benchy_0.2mm_PLA.gcode", started: started, ended: started.addingTimeInterval(2 * 3600 + 14 * 60),
                                 result: .finished, layer: 212, totalLayers: 212, filamentUsed: 4213,
                                 firstLayerPicture: first, finalPicture: final)
        store.record(print)
        let events = [JournalEvent(kind: .pause, words: "Filament runout", at: started.addingTimeInterval(1800)),
                      JournalEvent(kind: .resume, at: started.addingTimeInterval(2400)),
                      JournalEvent(kind: .alert, words: "Chamber temperature too high", at: started.addingTimeInterval(3600))]
        events.forEach { store.add($0, toPrint: print.key) }
        let timelapse = directory.appendingPathComponent("Videos/Voron timelapse.mp4")
        try FileManager.default.createDirectory(at: timelapse.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([0, 0, 0, 24]).write(to: timelapse)
        let deletedRecording = directory.appendingPathComponent("Videos/Voron recording.mkv")
        store.add(JournalVideo(kind: .timelapse, file: timelapse), toPrint: print.key)
        store.add(JournalVideo(kind: .recording, file: deletedRecording), toPrint: print.key)

        try withPage(of: print, in: store, directory: directory, width: 720) { app, page in
            var opened: [URL] = []
            app.fileLauncher = { opened.append($0) }

            let texts = Self.texts(in: page.widget)
            for expected in ["benchy_0.2mm_PLA.gcode", "Finished", "Voron & Co", "Nozzle Cam", "2 h 14 min", "212 of 212", "4.2 m"] {
                XCTAssertTrue(texts.contains(expected), "“\(expected)” is shown: \(texts)")
            }
            XCTAssertFalse(texts.contains("Taken from the printer's own history"), "recorded by Layerwatch itself")

            for (view, size) in [(page.firstLayerPicture, (320, 240)), (page.finalPicture, (640, 360))] {
                let paintable = try XCTUnwrap(gtk_picture_get_paintable(gcast(view.picture)), "the picture is shown")
                XCTAssertEqual(gdk_paintable_get_intrinsic_width(paintable), Int32(size.0))
                XCTAssertEqual(gdk_paintable_get_intrinsic_height(paintable), Int32(size.1))
                XCTAssertFalse(view.isPlaceholderShown)
            }

            _ = iterateMainContext(timeout: 1) { false }  // laid out
            let (firstAt, finalAt) = (Self.origin(of: page.firstLayerPicture.widget, in: page.widget),
                                      Self.origin(of: page.finalPicture.widget, in: page.widget))
            XCTAssertEqual(firstAt.y, finalAt.y, "side by side in a wide window")
            XCTAssertLessThan(firstAt.x, finalAt.x)

            let timeline = Self.rows(in: page.timeline)
            XCTAssertEqual(timeline.map(\.title), ["Started", "Paused", "Resumed", "Alert", "Finished"], "in the order they happened")
            XCTAssertEqual(timeline.map(\.subtitle), [nil, "Filament runout", nil, "Chamber temperature too high", nil])
            XCTAssertEqual(Set(timeline.map(\.value)).count, 5, "each with its own time: \(timeline.map(\.value))")

            let videos = Self.rows(in: page.videos)
            XCTAssertEqual(videos.map(\.title), ["Voron timelapse.mp4", "Voron recording.mkv"], "a row per video")
            XCTAssertEqual(videos.map(\.subtitle), ["Timelapse", "File no longer exists"])
            let showInFiles = descendants(of: videos[0].row).first { PreferencesWidgets.typeName($0) == "GtkButton" }
            XCTAssertEqual(showInFiles.flatMap { gtk_actionable_get_action_name(gcast($0)) }.map { String(cString: $0) }, "app.show-in-files")
            XCTAssertEqual(showInFiles.flatMap { gtk_actionable_get_action_target_value(gcast($0)) }
                .map { String(cString: g_variant_get_string($0, nil)) }, timelapse.path, "its button shows the video in Files")
            XCTAssertFalse(descendants(of: videos[1].row).contains { PreferencesWidgets.typeName($0) == "GtkButton" }, "none for a deleted one")
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("history-print-page")
            let scrolled = try XCTUnwrap(descendants(of: page.widget).first { PreferencesWidgets.typeName($0) == "GtkScrolledWindow" })
            let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scrolled))
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("history-print-page-videos")

            gtk_widget_activate(videos[0].row)
            XCTAssertTrue(iterateMainContext(timeout: 5) { opened == [timelapse] }, "the video's row opens it: \(opened)")
            gtk_widget_activate(videos[1].row)
            let button = try XCTUnwrap(gtk_widget_get_ancestor(page.finalPicture.picture, gtk_button_get_type()))
            gtk_widget_activate(button)
            XCTAssertTrue(iterateMainContext(timeout: 5) { opened == [timelapse, final] },
                          "a deleted video opens nothing, a click on the picture opens it: \(opened)")
        }
    }

    func testAFailedPrintShowsTheErrorAndADeletedPictureItsPlaceholder() throws {
        let directory = try makeTemporaryDirectory()
        let store = JournalStore(url: directory.appendingPathComponent("journal/journal.sqlite3"))
        let first = try Self.jpeg(width: 400, height: 300, in: store.picturesFolder, name: "first.jpg")
        let final = try Self.jpeg(width: 400, height: 300, in: store.picturesFolder, name: "final.jpg")
        try FileManager.default.removeItem(at: final)  // as retention deletes it
        let started = Date(timeIntervalSince1970: 1_780_000_000)
        let print = JournalPrint(key: "k1/42", printerID: "k1", printerName: "K1 Max", job: "bracket.gcode", started: started,
                                 ended: started.addingTimeInterval(50 * 60), result: .failed,
                                 error: "Nozzle clog detected: check the extruder", layer: 37, totalLayers: 180,
                                 fromPrinterHistory: true, firstLayerPicture: first, finalPicture: final)
        store.record(print)

        try withPage(of: print, in: store, directory: directory, width: 420) { _, page in

            let texts = Self.texts(in: page.widget)
            for expected in ["bracket.gcode", "Failed", "Nozzle clog detected: check the extruder", "50 min", "37 of 180",
                             "Taken from the printer's own history"] {
                XCTAssertTrue(texts.contains(expected), "“\(expected)” is shown: \(texts)")
            }
            XCTAssertFalse(texts.contains { $0.hasSuffix(" m") && $0.first?.isNumber == true }, "no filament the printer did not report")
            XCTAssertTrue(page.finalPicture.isPlaceholderShown, "the deleted picture's place")
            XCTAssertEqual(String(cString: gtk_label_get_text(gcast(page.finalPicture.placeholderLabel))), "Picture no longer kept")
            XCTAssertNil(gtk_picture_get_paintable(gcast(page.finalPicture.picture)))
            XCTAssertFalse(page.firstLayerPicture.isPlaceholderShown)
            _ = iterateMainContext(timeout: 1) { false }  // laid out
            let (firstAt, finalAt) = (Self.origin(of: page.firstLayerPicture.widget, in: page.widget),
                                      Self.origin(of: page.finalPicture.widget, in: page.widget))
            XCTAssertGreaterThan(finalAt.y, firstAt.y, "stacked in a narrow window")
            XCTAssertEqual(gtk_picture_get_paintable(gcast(page.firstLayerPicture.picture)).map(gdk_paintable_get_intrinsic_width), 400)

            let timeline = Self.rows(in: page.timeline)
            XCTAssertEqual(timeline.map(\.title), ["Started", "Failed"])
            XCTAssertEqual(timeline.last?.subtitle, "Nozzle clog detected: check the extruder")
            XCTAssertFalse(Bool(gboolean: gtk_widget_get_visible(page.videos)), "no video, no Videos group")
            _ = iterateMainContext(timeout: 1) { false }
            Screen.save("history-print-page-failed")
        }
    }

    func testAPrintUnderWayWithoutPicturesShowsWhatItHasSoFar() throws {
        let directory = try makeTemporaryDirectory()
        let store = JournalStore(url: directory.appendingPathComponent("journal/journal.sqlite3"))
        let print = JournalPrint(key: "mk4/7", printerID: "mk4", printerName: "MK4", job: nil, started: Date().addingTimeInterval(-600))
        store.record(print)
        store.add(JournalEvent(kind: .pause, words: "Waiting for the user", at: Date().addingTimeInterval(-300)), toPrint: print.key)

        try withPage(of: print, in: store, directory: directory, width: 720) { _, page in

            let texts = Self.texts(in: page.widget)
            for expected in ["Unnamed Job", "Printing", "MK4", "Started"] {
                XCTAssertTrue(texts.contains(expected), "“\(expected)” is shown: \(texts)")
            }
            for absent in ["Ended", "Duration", "Layers", "Filament Used", "Camera"] {
                XCTAssertFalse(texts.contains(absent), "no “\(absent)” for what the print has not: \(texts)")
            }
            for view in [page.firstLayerPicture, page.finalPicture] {
                XCTAssertTrue(view.isPlaceholderShown)
                XCTAssertEqual(String(cString: gtk_label_get_text(gcast(view.placeholderLabel))), "No picture kept")
            }
            XCTAssertEqual(Self.rows(in: page.timeline).map(\.title), ["Started", "Paused"], "no end yet")
        }
    }

    /// A JPEG `width` × `height` of colour bars, as the journal keeps pictures.
    private static func jpeg(width: Int, height: Int, in folder: URL, name: String) throws -> URL {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let bar = x * 7 / width, offset = (y * width + x) * 4
                pixels[offset] = bar & 1 != 0 ? 220 : 30
                pixels[offset + 1] = bar & 2 != 0 ? 200 : 40
                pixels[offset + 2] = bar & 4 != 0 ? 210 : 50
            }
        }
        let bytes = try pixels.withUnsafeBytes { try TimelapseEncoder.jpeg($0.baseAddress!, width: width, height: height, stride: width * 4, order: .bgra) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    /// Starts the app on `directory` and shows `print`'s page of `store` in a window of the app
    /// `width` wide (its `app.` actions reach the page); once the page has the journal's reads
    /// and its pictures, runs `body`, then closes both windows.
    private func withPage(of print: JournalPrint, in store: JournalStore, directory: URL, width: Int32,
                          _ body: @MainActor (LayerwatchApplication, HistoryPrintPage) throws -> Void) throws {
        try MainActor.assumeIsolated {
            let (app, main) = try startApp(in: directory)
            defer { main.close() }
            let page = HistoryPrintPage(print: print, store: store)
            let window = gtk_window_new()!
            defer { gtk_window_destroy(gcast(window)) }
            gtk_window_set_application(gcast(window), gcast(app.application))
            gtk_window_set_title(gcast(window), "History")
            gtk_window_set_default_size(gcast(window), width, 1150)
            gtk_window_set_child(gcast(window), page.widget)
            gtk_window_present(gcast(window))
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                page.isFilled && page.firstLayerPicture.isLoaded && page.finalPicture.isLoaded
            }, "the journal's reads and the pictures come back")
            try body(app, page)
        }
    }

    /// Where `widget`'s top-left corner is in `ancestor`.
    @MainActor
    private static func origin(of widget: UnsafeMutablePointer<GtkWidget>, in ancestor: UnsafeMutablePointer<GtkWidget>) -> (x: Double, y: Double) {
        var x = 0.0, y = 0.0
        XCTAssertTrue(Bool(gboolean: gtk_widget_translate_coordinates(widget, ancestor, 0, 0, &x, &y)))
        return (x, y)
    }

    /// The text of every label shown under `widget`.
    @MainActor
    private static func texts(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        descendants(of: widget).filter { PreferencesWidgets.typeName($0) == "GtkLabel" && Bool(gboolean: gtk_widget_is_visible($0)) }
            .map { String(cString: gtk_label_get_text(gcast($0))) }
    }

    /// The action rows of `group`, in order: title, subtitle and the value at their end.
    @MainActor
    private static func rows(in group: UnsafeMutablePointer<GtkWidget>)
        -> [(row: UnsafeMutablePointer<GtkWidget>, title: String, subtitle: String?, value: String?)] {
        descendants(of: group).filter { PreferencesWidgets.typeName($0) == "AdwActionRow" }.map { row in
            let subtitle = adw_action_row_get_subtitle(gcast(row)).map { String(cString: $0) }
            let value = descendants(of: row).last { PreferencesWidgets.typeName($0) == "GtkLabel" && gtk_widget_has_css_class($0, "dim-label") != 0 }
            return (row, String(cString: adw_preferences_row_get_title(gcast(row))), subtitle.flatMap { $0.isEmpty ? nil : $0 },
                    value.map { String(cString: gtk_label_get_text(gcast($0))) })
        }
    }
}
