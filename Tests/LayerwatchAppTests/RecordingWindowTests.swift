import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// Recording from the window, as a user does it: Ctrl+Shift+R records the selected camera on its
/// one connection, a red badge counts time and size on the tab (and the mini window), the Record
/// button is on; Ctrl+Shift+R again stops it and a toast says where the file went, which decodes
/// cleanly at the camera's codec and size. A disk full before the first picture stops it with a
/// toast saying so, and leaves no file.
final class RecordingWindowTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testCtrlShiftRRecordsTheSelectedCameraIntoTheVideosFolder() throws {
        let windowManager = try WindowManager()
        try withLiveCamera { server, printer, app, window, page, videos in
            XCTAssertNil(page.surface!.recordingBadgeText)
            XCTAssertTrue(page.isPictureActionEnabled("record"))
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))

            XCTAssertEqual(Keyboard.press("ctrl+shift+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { page.session!.recording != nil }, "Ctrl+Shift+R records")
            XCTAssertTrue(page.surface!.recordingBadgeText?.hasPrefix("● 0:0") ?? false, String(describing: page.surface!.recordingBadgeText))
            XCTAssertTrue(isRecordButtonOn(page), "the Record button shows it")
            app.togglePopOut(page.camera!)
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            XCTAssertTrue(iterateMainContext(timeout: 5) { (page.session!.recording?.current.seconds ?? 0) >= 2.2 })
            XCTAssertTrue(iterateMainContext(timeout: 2) { page.surface!.recordingBadgeText?.hasPrefix("● 0:02") ?? false },
                          String(describing: page.surface!.recordingBadgeText))
            XCTAssertTrue(iterateMainContext(timeout: 2) { mini.surface.recordingBadgeText != nil }, "the mini window shows it too")
            mini.close()

            XCTAssertEqual(Keyboard.press("ctrl+shift+r", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !toastTitles(in: window.window).isEmpty }, "a toast says where it went")
            let files = try FileManager.default.contentsOfDirectory(atPath: videos.path)
            XCTAssertEqual(files.count, 1)
            let name = try XCTUnwrap(files.first)
            XCTAssertTrue(name.hasPrefix("Voron ") && name.hasSuffix(".mkv"), name)
            XCTAssertEqual(toastTitles(in: window.window), ["Saved “\(name)” in \(SavedFiles.shownName(of: videos))"])
            XCTAssertNil(page.surface!.recordingBadgeText)
            XCTAssertFalse(isRecordButtonOn(page))
            let recorded = try RecordedFile(videos.appendingPathComponent(name))
            XCTAssertEqual(recorded.codec, "h264")
            XCTAssertEqual([recorded.width, recorded.height], [640, 480])
            XCTAssertEqual(recorded.decodeErrors, "")
            XCTAssertGreaterThanOrEqual(recorded.seconds, 2)
            XCTAssertEqual(server.events(named: "client").count, 1, "tab, tile, mini window and recording on one connection")
        }
        withExtendedLifetime(windowManager) {}
    }

    /// The red dot with the time and size, as README promises it, on the farm tile and on the
    /// tab's picture: each badge's own label shows "● 0:02 · 180 KB" whole and counts on every
    /// second, from the moment its view appears: a view appearing (the tab after the farm, the
    /// farm after the tab) showed no badge, or the time it was left at, until its next tick.
    func testTheBadgeShowsTheTimeAndSizeOnTheTileAndTheTabFromTheMomentTheyAppear() throws {
        let windowManager = try WindowManager()
        try withLiveCamera { _, printer, app, window, page, _ in
            window.setFarmShown(true)
            let tile = try XCTUnwrap(window.farm.tile(id: printer.id))
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_mapped(tile.surface!.widget)) })
            window.tabs.selected?.setRecording(true)
            XCTAssertTrue(iterateMainContext(timeout: 10) { (page.session!.recording?.current.seconds ?? 0) >= 2.2 })
            let tileBadge = try XCTUnwrap(badgeLabel(in: tile.widget)), tabBadge = try XCTUnwrap(badgeLabel(in: page.widget))
            XCTAssertTrue(iterateMainContext(timeout: 3) { Self.isWholeAndCounting(tileBadge) }, "the tile: \(Self.describe(tileBadge))")
            let first = Self.seconds(in: tileBadge) ?? 0
            XCTAssertTrue(iterateMainContext(timeout: 4) { (Self.seconds(in: tileBadge) ?? 0) >= first + 2 }, "it counts on: \(Self.describe(tileBadge))")
            XCTAssertTrue(iterateFrames(5) { Self.isWholeAndCounting(tileBadge) }, "the tile: \(Self.describe(tileBadge))")
            iterateFrames(10)  // drawn, for a screenshot
            ScreenCapture.saveIfAsked(as: "recording-badge-tile")

            // The tab, never shown since the recording began: its badge says the time now, at once.
            let onTile = Self.seconds(in: tileBadge) ?? 0
            window.setFarmShown(false)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_mapped(page.surface!.widget)) })
            // At once: within a few frames (laid out and drawn), well before the ticks' first second.
            XCTAssertTrue(iterateFrames(5) { Self.isWholeAndCounting(tabBadge) && (Self.seconds(in: tabBadge) ?? 0) >= onTile },
                          "the tab at once: \(Self.describe(tabBadge)), the tile said \(onTile) s")
            let onTab = Self.seconds(in: tabBadge) ?? 0
            XCTAssertTrue(iterateMainContext(timeout: 4) { (Self.seconds(in: tabBadge) ?? 0) >= onTab + 2 }, "it counts on: \(Self.describe(tabBadge))")
            iterateFrames(10)  // drawn, for a screenshot
            ScreenCapture.saveIfAsked(as: "recording-badge-tab")

            // And the farm again: the tile's badge at the time now, at once.
            let left = Self.seconds(in: tabBadge) ?? 0
            window.setFarmShown(true)
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_mapped(tile.surface!.widget)) })
            XCTAssertTrue(iterateFrames(5) { Self.isWholeAndCounting(tileBadge) && (Self.seconds(in: tileBadge) ?? 0) >= left },
                          "the tile at once: \(Self.describe(tileBadge)), the tab said \(left) s")
            window.tabs.selected?.setRecording(false)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !Bool(gboolean: gtk_widget_get_visible(tileBadge)) }, "gone once it stops")
        }
        withExtendedLifetime(windowManager) {}
    }

    /// The recording badge's label inside `widget`.
    @MainActor
    private func badgeLabel(in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        descendants(of: widget).first { Bool(gboolean: gtk_widget_has_css_class($0, "recording-badge")) }
    }

    /// The badge's text, whether it is drawn and how wide it is against the width its text needs.
    @MainActor
    private static func describe(_ label: UnsafeMutablePointer<GtkWidget>) -> String {
        "“\(String(cString: gtk_label_get_text(gcast(label))))” drawn \(gtk_widget_is_drawable(label)), \(widths(of: label))"
    }

    /// The badge's width on screen (its box, padding included) and the width its text needs.
    @MainActor
    private static func widths(of label: UnsafeMutablePointer<GtkWidget>) -> (shown: Float, needed: Int32) {
        var natural: Int32 = 0, bounds = graphene_rect_t()
        gtk_widget_measure(label, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
        _ = gtk_widget_compute_bounds(label, label, &bounds)
        return (bounds.size.width, natural)
    }

    /// "● 0:02 · 180 KB": a time of at least a second and a size above nothing, drawn whole.
    @MainActor
    private static func isWholeAndCounting(_ label: UnsafeMutablePointer<GtkWidget>) -> Bool {
        let text = String(cString: gtk_label_get_text(gcast(label)))
        let parts = text.split(separator: " · ")
        let widths = widths(of: label)
        guard Bool(gboolean: gtk_widget_is_drawable(label)), widths.shown + 0.5 >= Float(widths.needed), parts.count == 2,
              let seconds = seconds(in: label), seconds >= 1,
              let size = Double(parts[1].split(separator: " ").first?.replacingOccurrences(of: ",", with: "") ?? "") else { return false }
        return size > 0
    }

    /// The seconds the badge's time says.
    @MainActor
    private static func seconds(in label: UnsafeMutablePointer<GtkWidget>) -> Int? {
        let text = String(cString: gtk_label_get_text(gcast(label)))
        guard text.hasPrefix("● "), let time = text.dropFirst(2).split(separator: " ").first else { return nil }
        let fields = time.split(separator: ":").compactMap { Int($0) }
        return fields.count >= 2 ? fields.reduce(0) { $0 * 60 + $1 } : nil
    }

    func testADiskFullBeforeTheFirstPictureIsToldAndLeavesNoFile() throws {
        try withLiveCamera { _, _, app, window, page, videos in
            try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
            // Files of 2 kB at most: the header fits, the first second's pictures do not.
            FileSizeLimit(bytes: 2000).during {
                window.tabs.selected?.setRecording(true)
                XCTAssertTrue(iterateMainContext(timeout: 10) { !toastTitles(in: window.window).isEmpty }, "a toast says it stopped")
            }
            XCTAssertEqual(toastTitles(in: window.window), ["The disk is full: the recording stopped. Nothing was recorded."])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: videos.path), [], "no file without a picture is left")
            XCTAssertNil(page.session!.recording)
            XCTAssertFalse(isRecordButtonOn(page))
        }
    }

    /// Starts the app with one printer, "Voron", on the loopback RTSP camera, recording into a
    /// Videos/Layerwatch of its own, and runs `body` once its tab plays.
    private func withLiveCamera(_ body: @MainActor (TestServer, Printer, LayerwatchApplication, MainWindow, PrinterPage, URL) throws -> Void) throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        let directory = try makeTemporaryDirectory()
        let videos = directory.appendingPathComponent("Videos/Layerwatch")
        let printer = Printer(name: "Voron", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(server.port)/streaming/live/1")], notifies: false)
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.recordingFolder = videos
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live })
            try body(server, printer, app, window, page, videos)
        }
    }

    /// Whether the page's Record toggle is pressed in.
    @MainActor
    private func isRecordButtonOn(_ page: PrinterPage) -> Bool {
        descendants(of: page.controls.widget).contains {
            Bool(gboolean: gtk_widget_has_css_class($0, "feature-record")) && Bool(gboolean: gtk_toggle_button_get_active(gcast($0)))
        }
    }
}
