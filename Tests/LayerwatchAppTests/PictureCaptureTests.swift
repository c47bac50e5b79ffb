import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import TestSupport
import XCTest

/// Save Snapshot and Record are actions of the picture they are asked from (`camera.snapshot`,
/// `camera.record`): the tab's control bar and keys act on the tab's camera, the tile's menu and
/// the keys in the farm on the selected tile's; each file is named for the printer whose picture
/// it is.
final class PictureCaptureTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testSnapshotActsOnThePictureItIsAskedFrom() throws {
        let windowManager = try WindowManager()
        let snapshots = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let two = try TwoCameraApp(for: self)
            let window = two.window
            defer { gtk_window_destroy(gcast(window.window)) }
            window.snapshotFolder = snapshots
            /// How many snapshots of each printer were saved, in the printers' order.
            @MainActor func saved() -> [Int] {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? []
                return two.printers.map { printer in names.filter { $0.hasPrefix(printer.name + " ") && $0.hasSuffix(".png") }.count }
            }

            // The tab: its control bar's button, then Ctrl+S.
            let button = try two.button("snapshot", of: two.pages[0])
            XCTAssertEqual(String(cString: gtk_actionable_get_action_name(gcast(button))), "camera.snapshot")
            gtk_widget_activate(button)
            XCTAssertTrue(iterateMainContext(timeout: 10) { saved() == [1, 0] }, "the bar's button: \(saved())")
            XCTAssertEqual(Keyboard.press("ctrl+s", window: two.xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { saved() == [2, 0] }, "Ctrl+S in the tab: \(saved())")

            // The farm: the selected tile's camera, from its menu and from Ctrl+S.
            let tile = try two.openTwosTileMenu()
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(tile.widget, "camera.snapshot", nil)), "the tile's menu finds it")
            XCTAssertTrue(iterateMainContext(timeout: 10) { saved() == [2, 1] }, "the tile's menu: \(saved())")
            two.focusTwosTile()
            XCTAssertEqual(Keyboard.press("ctrl+s", window: two.xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 10) { saved() == [2, 2] }, "Ctrl+S in the farm: \(saved())")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testRecordActsOnThePictureItIsAskedFrom() throws {
        let windowManager = try WindowManager()
        let videos = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let two = try TwoCameraApp(for: self)
            let window = two.window
            defer { gtk_window_destroy(gcast(window.window)) }
            window.recordingFolder = videos
            /// Which printers' cameras are being recorded, in the printers' order.
            @MainActor func recording() -> [Bool] { two.pages.map { $0.session?.recording != nil } }
            /// Waits until the camera recording (`index`) has recorded pictures.
            @MainActor func recordsPictures(_ index: Int) -> Bool {
                iterateMainContext(timeout: 10) { (two.pages[index].session?.recording?.current.seconds ?? 0) > 0.5 }
            }

            // The tab: Ctrl+Shift+R starts its camera's recording, which its button shows; the button stops it.
            let button = try two.button("record", of: two.pages[0])
            XCTAssertEqual(String(cString: gtk_actionable_get_action_name(gcast(button))), "camera.record")
            XCTAssertEqual(Keyboard.press("ctrl+shift+r", window: two.xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { recording() == [true, false] }, "Ctrl+Shift+R in the tab: \(recording())")
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_toggle_button_get_active(gcast(button))) }, "its button shows it")
            XCTAssertTrue(recordsPictures(0))
            gtk_widget_activate(button)
            XCTAssertTrue(iterateMainContext(timeout: 5) { recording() == [false, false] }, "the bar's button: \(recording())")
            XCTAssertFalse(Bool(gboolean: gtk_toggle_button_get_active(gcast(button))))

            // The farm: the selected tile's camera, started from its menu, stopped by Ctrl+Shift+R.
            let tile = try two.openTwosTileMenu()
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate_action_variant(tile.widget, "camera.record", nil)), "the tile's menu finds it")
            XCTAssertTrue(iterateMainContext(timeout: 5) { recording() == [false, true] }, "the tile's menu: \(recording())")
            XCTAssertTrue(recordsPictures(1))
            two.focusTwosTile()
            XCTAssertEqual(Keyboard.press("ctrl+shift+r", window: two.xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { recording() == [false, false] }, "Ctrl+Shift+R in the farm: \(recording())")

            // One file of each printer's camera, named for it.
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: videos.path)) ?? []
                return two.printers.map { printer in names.filter { $0.hasPrefix(printer.name + " ") && $0.hasSuffix(".mkv") }.count } == [1, 1]
            }, "\(String(describing: try? FileManager.default.contentsOfDirectory(atPath: videos.path)))")
        }
        withExtendedLifetime(windowManager) {}
    }
}
