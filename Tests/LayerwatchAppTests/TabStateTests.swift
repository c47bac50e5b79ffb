import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// What a printer's tab says at a glance, in the app: GNOME's usual tab icons for the camera's state
/// (none while live, a warning sign once failed), the red dot only while its camera records, and
/// the print's percentage whole after a long name, the full title in the tooltip.
final class TabStateTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheTabShowsItsStateIconAndTheRedDotOnlyWhileRecording() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 2)
        let directory = try makeTemporaryDirectory()
        let live = Printer(name: "Live", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        let missing = Printer(name: "Missing", kind: .generic, cameras: [PrinterCamera(url: directory.appendingPathComponent("none.mp4").path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [live, missing], selectedPrinterID: live.id))
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { window.close() }
            window.recordingFolder = directory.appendingPathComponent("Videos")
            let page = try XCTUnwrap(window.tabs.page(id: live.id)), failed = try XCTUnwrap(window.tabs.page(id: missing.id))
            let liveTab = try XCTUnwrap(adw_tab_view_get_page(gcast(window.tabs.view), page.widget))
            let failedTab = try XCTUnwrap(adw_tab_view_get_page(gcast(window.tabs.view), failed.widget))
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                if case .failed = failed.state { return page.state == .live }
                return false
            }, "\(page.state) \(failed.state)")
            XCTAssertEqual(adw_tab_page_get_loading(liveTab), 0)
            XCTAssertNil(adw_tab_page_get_icon(liveTab), "a live camera is the normal case: no icon")
            XCTAssertNil(adw_tab_page_get_indicator_icon(liveTab), "no dot while not recording")
            XCTAssertEqual(Self.iconName(adw_tab_page_get_icon(failedTab)), "dialog-warning-symbolic")
            XCTAssertNil(adw_tab_page_get_indicator_icon(failedTab))

            window.tabs.selected?.setRecording(true)
            XCTAssertTrue(iterateMainContext(timeout: 5) { adw_tab_page_get_indicator_icon(liveTab) != nil }, "recording shows the dot")
            XCTAssertEqual(Self.iconName(adw_tab_page_get_indicator_icon(liveTab)), "media-record-symbolic")
            XCTAssertEqual(String(cString: adw_tab_page_get_indicator_tooltip(liveTab)), "Recording")
            XCTAssertTrue(String(cString: adw_tab_page_get_tooltip(liveTab)).contains("Recording"))
            XCTAssertNil(adw_tab_page_get_indicator_icon(failedTab), "only the recording printer's tab")
            _ = iterateMainContext(timeout: 1) { false }
            let dot = try XCTUnwrap(descendants(of: window.tabs.bar).first {
                Bool(gboolean: gtk_widget_has_css_class($0, "tab-indicator")) && gtk_widget_get_mapped($0) != 0
            }, "the dot is drawn on the tab")
            var colour = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(dot), &colour)
            XCTAssertGreaterThan(colour.red, 0.8, "the dot is red")
            XCTAssertLessThan(colour.green, 0.3)

            window.tabs.selected?.setRecording(false)
            XCTAssertTrue(iterateMainContext(timeout: 5) { adw_tab_page_get_indicator_icon(liveTab) == nil }, "the dot goes with the recording")
            XCTAssertNil(adw_tab_page_get_icon(liveTab))
        }
    }

    func testALongNameIsShortenedAndThePercentageKept() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock { moonraker.stop() }
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "benchy.gcode", "print_duration": 600],
                                                 "display_status": ["progress": 0.42]]])
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let name = "A very long printer name in the workshop"
        let printer = Printer(name: name, kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                              cameras: [PrinterCamera(url: clip.path)], notifies: false)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { window.close() }
            let page = try XCTUnwrap(window.tabs.selected)
            let tab = try XCTUnwrap(adw_tab_view_get_page(gcast(window.tabs.view), page.widget))
            XCTAssertTrue(iterateMainContext(timeout: 10) { String(cString: adw_tab_page_get_title(tab)).hasSuffix("42 %") },
                          String(cString: adw_tab_page_get_title(tab)))
            XCTAssertEqual(String(cString: adw_tab_page_get_title(tab)), "A very long print… · 42 %")
            XCTAssertTrue(String(cString: adw_tab_page_get_tooltip(tab)).hasPrefix("\(name) · 42 %\n"), "the full title in the tooltip")
        }
    }

    func testTitlesKeepTheFigureWhole() {
        XCTAssertEqual(TabTitle(name: "Voron", percent: "42 %").shown, "Voron · 42 %")
        XCTAssertEqual(TabTitle(name: "A very long printer name", percent: nil).shown, "A very long printer name", "no figure: libadwaita fades it")
        let long = TabTitle(name: "Prusa MK4 in the garage", percent: "100 %")
        XCTAssertEqual(long.shown, "Prusa MK4 in the… · 100 %", "the cut drops the space before it")
        XCTAssertEqual(long.full, "Prusa MK4 in the garage · 100 %")
    }

    @MainActor
    private static func iconName(_ icon: OpaquePointer?) -> String? {
        guard let icon, let names = g_themed_icon_get_names(gcast(icon)), let first = names[0] else { return nil }
        return String(cString: first)
    }
}
