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
