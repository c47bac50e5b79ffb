import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import TestSupport
import XCTest

/// Save Snapshot is an action of the picture it is asked from (`camera.snapshot`): the tab's
/// control bar and Ctrl+S save the tab's camera, the tile's menu and Ctrl+S in the farm the
/// selected tile's; each file is named for the printer whose picture it is.
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
}
