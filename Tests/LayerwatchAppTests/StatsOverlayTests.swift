import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import TestSupport
import XCTest

/// The stats readout (Ctrl+I) on the demo printer, in a small and a large window with large text
/// (200 %, as GNOME's text scaling gives): its text lies inside its rounded box, and the box inside
/// the video, once frames have come.
final class StatsOverlayTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheStatsTextStaysInsideItsBoxInASmallAndALargeWindow() throws {
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            setTextScale(2)
            defer { setTextScale(1) }
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isWelcomeShown })
            gtk_widget_activate_action_variant(window.window, Feature.showDemo.actionName, nil)
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(try XCTUnwrap(page.camera).isDemo)
            let surface = try XCTUnwrap(page.surface)
            surface.setStatsShown(true)
            let stats = surface.stats
            XCTAssertTrue(iterateMainContext(timeout: 10) { stats.text.contains("×") && !stats.text.hasPrefix("—") },
                          "frames came and the stats say so: \(stats.text)")

            for (width, height) in [(360, 420), (1400, 1000)] {
                gtk_window_set_default_size(gcast(window.window), Int32(width), Int32(height))
                var narrowest: Int32 = 0
                gtk_widget_measure(window.window, GTK_ORIENTATION_HORIZONTAL, -1, &narrowest, nil, nil, nil)
                let expected = max(Int32(width), narrowest)  // the small one: as narrow as the window goes
                XCTAssertTrue(iterateMainContext(timeout: 5) { abs(gtk_widget_get_width(window.window) - expected) <= 20 },  // its shadow
                              "the window is \(expected) wide: \(gtk_widget_get_width(window.window))")
                _ = iterateMainContext(timeout: 2) { false }  // a stats refresh or two, laid out and drawn
                ScreenCapture.saveIfAsked(as: "stats-overlay-\(width)")

                let video = surface.widget
                var box = graphene_rect_t(), label = graphene_rect_t()
                XCTAssertTrue(Bool(gboolean: gtk_widget_compute_bounds(stats.widget, video, &box)))
                XCTAssertTrue(Bool(gboolean: gtk_widget_compute_bounds(stats.label, stats.widget, &label)))
                let videoWidth = Float(gtk_widget_get_width(video))
                XCTAssertGreaterThanOrEqual(box.origin.x, 0, "\(width) px: the box starts inside the video")
                XCTAssertLessThanOrEqual(box.origin.x + box.size.width, videoWidth, "\(width) px: the box ends inside the video (\(box.size.width) px wide)")
                XCTAssertGreaterThanOrEqual(label.origin.x, 0, "\(width) px")
                XCTAssertGreaterThanOrEqual(label.origin.y, 0, "\(width) px")
                XCTAssertLessThanOrEqual(label.origin.x + label.size.width, box.size.width, "\(width) px: the text ends inside its box")
                XCTAssertLessThanOrEqual(label.origin.y + label.size.height, box.size.height, "\(width) px: the text ends inside its box")
                var ink = PangoRectangle(), logical = PangoRectangle()
                pango_layout_get_pixel_extents(gtk_label_get_layout(gcast(stats.label)), &ink, &logical)
                XCTAssertLessThanOrEqual(logical.width, Int32(label.size.width), "\(width) px: the lines fit the label: \(stats.text)")
                XCTAssertLessThanOrEqual(logical.height, Int32(label.size.height), "\(width) px: \(stats.text)")
            }
        }
    }

    /// Show Stats is an action of the picture it is asked from (`camera.show-stats`): the tab's
    /// control bar toggle and Ctrl+I show or hide that tab's readout; a mini window (its compact
    /// picture has none) leaves the tabs' alone.
    func testShowStatsActsOnThePictureItIsAskedFrom() throws {
        let windowManager = try WindowManager()
        try MainActor.assumeIsolated {
            let two = try TwoCameraApp(for: self)
            let window = two.window
            defer { gtk_window_destroy(gcast(window.window)) }
            /// Whether each tab's picture shows its readout, in the printers' order.
            @MainActor func shown() -> [Bool] { two.pages.map { $0.surface?.stats.isShown == true } }
            XCTAssertEqual(shown(), [false, false])

            // Tab One: its control bar's toggle.
            let button = try two.button("show-stats", of: two.pages[0])
            XCTAssertEqual(String(cString: gtk_actionable_get_action_name(gcast(button))), "camera.show-stats")
            gtk_widget_activate(button)
            XCTAssertTrue(iterateMainContext(timeout: 5) { shown() == [true, false] }, "the bar's toggle: \(shown())")
            XCTAssertTrue(Bool(gboolean: gtk_toggle_button_get_active(gcast(button))))
            _ = iterateMainContext(timeout: 1) { false }  // drawn
            ScreenCapture.saveIfAsked(as: "stats-control-bar")

            // Tab Two: Ctrl+I, twice.
            window.tabs.select(two.pages[1])
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.tabs.selected === two.pages[1] })
            XCTAssertEqual(Keyboard.press("ctrl+i", window: two.xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { shown() == [true, true] }, "Ctrl+I in tab Two: \(shown())")
            XCTAssertEqual(Keyboard.press("ctrl+i", window: two.xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { shown() == [true, false] }, "Ctrl+I again in tab Two: \(shown())")

            // A mini window of One: no readout, and Ctrl+I there leaves the tabs' alone.
            two.app.togglePopOut(try XCTUnwrap(two.pages[0].camera))
            let mini = try XCTUnwrap(two.app.miniWindows[two.printers[0].id])
            XCTAssertTrue(iterateMainContext(timeout: 10) { mini.surface.shownFrame != nil })
            _ = iterateMainContext(timeout: 5) { Bool(gboolean: gtk_window_is_active(gcast(mini.window))) }
            let miniXID = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(mini.window))))
            XCTAssertFalse(Bool(gboolean: gtk_widget_activate_action_variant(mini.window, "camera.show-stats", nil)))
            XCTAssertEqual(Keyboard.press("ctrl+i", window: miniXID), 0)
            _ = iterateMainContext(timeout: 1) { false }
            XCTAssertEqual(shown(), [true, false], "the tabs' pictures are left as they were")
            mini.close()
        }
        withExtendedLifetime(windowManager) {}
    }

    /// Scales every font as GNOME's text scaling factor does (GTK's font resolution, 96 dpi × scale).
    @MainActor
    private func setTextScale(_ scale: Double) {
        var value = GValue()
        g_value_init(&value, g_type_from_name("gint"))
        g_value_set_int(&value, gint(96 * 1024 * scale))
        g_object_set_property(gcast(gtk_settings_get_default()!), "gtk-xft-dpi", &value)
        g_value_unset(&value)
    }
}
