import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import StreamKit
import TestSupport
import XCTest

/// One tab per printer: state shown on the tab, reordering reported, closing only on request, and
/// a tab that isn't selected converts no pixels.
final class PrinterTabsTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTabsShowStateReorderAndCloseOnlyWhenTheOwnerAgrees() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 25, seconds: 2)
        let live = StreamSession(source: .file(path: clip.path, loop: true))
        let refused = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(closedLoopbackPort())/x"))
        addTeardownBlock {
            live.stop()
            refused.stop()
        }
        try MainActor.assumeIsolated {
            let tabs = PrinterTabs()
            let window = gtk_window_new()!
            defer { gtk_window_destroy(gcast(window)) }
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(gcast(box), tabs.bar)
            gtk_box_append(gcast(box), tabs.view)
            gtk_window_set_child(gcast(window), box)
            gtk_window_set_default_size(gcast(window), 800, 600)
            var orderChanges = 0, closeRequests: [String] = []
            tabs.onOrderChange = { orderChanges += 1 }
            tabs.onCloseRequest = { closeRequests.append($0.name) }
            let first = PrinterPage(printer: PrinterCameras(camera: Camera(name: "Bench", source: live.source))) { _ in live }
            let second = PrinterPage(printer: PrinterCameras(camera: Camera(name: "Shelf", source: refused.source))) { _ in refused }
            tabs.add(first, select: true)
            tabs.add(second, select: false)
            gtk_window_present(gcast(window))
            XCTAssertEqual(tabs.all.map(\.name), ["Bench", "Shelf"])
            XCTAssertTrue(tabs.selected === first)

            let firstTab = try XCTUnwrap(adw_tab_view_get_nth_page(gcast(tabs.view), 0))
            let secondTab = try XCTUnwrap(adw_tab_view_get_nth_page(gcast(tabs.view), 1))
            XCTAssertTrue(iterateMainContext(timeout: 10) { first.state == .live })
            XCTAssertEqual(adw_tab_page_get_loading(firstTab), 0)
            XCTAssertNil(adw_tab_page_get_icon(firstTab), "a live tab needs no icon (TabStateTests: the recording dot)")
            XCTAssertNil(adw_tab_page_get_indicator_icon(firstTab))
            XCTAssertTrue(iterateMainContext(timeout: 5) { second.state.isReconnecting })
            XCTAssertEqual(adw_tab_page_get_loading(secondTab), 1, "reconnecting shows a spinner")
            XCTAssertTrue(String(cString: adw_tab_page_get_tooltip(secondTab)).contains("refused"))

            // The hidden tab's page is unmapped: its session decodes but converts nothing.
            XCTAssertEqual(gtk_widget_get_mapped(second.surface!.picture), 0)
            tabs.select(second)
            XCTAssertTrue(iterateMainContext(timeout: 2) { gtk_widget_get_mapped(first.surface!.picture) == 0 })
            let converted = live.stats.convertedFrames, decoded = live.stats.decodedFrames
            XCTAssertTrue(iterateMainContext(timeout: 5) { live.stats.decodedFrames >= decoded + 10 })
            XCTAssertLessThanOrEqual(live.stats.convertedFrames, converted + 1)

            let before = orderChanges
            adw_tab_view_reorder_page(gcast(tabs.view), secondTab, 0)
            XCTAssertEqual(tabs.all.map(\.name), ["Shelf", "Bench"])
            XCTAssertGreaterThan(orderChanges, before)

            adw_tab_view_close_page(gcast(tabs.view), firstTab)
            XCTAssertEqual(closeRequests, ["Bench"], "closing asks the owner")
            XCTAssertEqual(tabs.all.count, 2, "and removes nothing by itself")
            XCTAssertEqual(live.consumerCount, 1)

            tabs.remove(first)
            XCTAssertEqual(tabs.all.map(\.name), ["Shelf"])
            XCTAssertEqual(live.consumerCount, 0, "a removed tab's view left its session")
            XCTAssertEqual(closeRequests, ["Bench"], "removal approved by the owner asks nothing again")
        }
    }
}
