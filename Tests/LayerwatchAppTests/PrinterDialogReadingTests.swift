import CGtk
import GtkKit
@testable import LayerwatchApp
import TestSupport
import XCTest

/// The printer dialog read as a user reads it: every Type in its open list whole, and one heading
/// over the cameras whatever the Type.
final class PrinterDialogReadingTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheTypeListShowsEveryTitleWhole() throws {
        try MainActor.assumeIsolated {
            let dialog = PrinterDialog(parent: nil, editing: nil)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.present()
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(dialog.window) != 0 })
            let titles = PrinterChoice.all.map(\.title)
            _ = gtk_widget_activate(dialog.kind.entry)  // as a click on the row: its list pops up
            let popover = try XCTUnwrap(descendants(of: dialog.kind.entry).first { cssName($0) == "popover" })
            // Closed before the dialog goes, as a user closes it: on X11 a popover destroyed while
            // open can leave its keyboard grab behind, and the next tests' shortcuts would go nowhere.
            defer {
                gtk_popover_popdown(gcast(popover))
                _ = iterateMainContext(timeout: 1) { gtk_widget_get_mapped(popover) == 0 }
            }
            var labels: [UnsafeMutablePointer<GtkWidget>] = []
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                labels = descendants(of: popover).filter { cssName($0) == "label" && gtk_widget_get_mapped($0) != 0 }
                return labels.count == titles.count && labels.allSatisfy { gtk_widget_get_width($0) > 0 }
            }, "the list pops up with a label per Type: \(labels.count)")
            _ = iterateMainContext(timeout: 1) { false }  // laid out and drawn
            ScreenCapture.saveIfAsked(as: "type-list-open")

            XCTAssertEqual(labels.map { String(cString: gtk_label_get_text(gcast($0))) }, titles, "each Type, in order")
            for label in labels {
                let text = String(cString: gtk_label_get_text(gcast(label)))
                let layout = gtk_label_get_layout(gcast(label))
                XCTAssertFalse(Bool(gboolean: pango_layout_is_ellipsized(layout)), "“\(text)” is cut with …")
                var ink = PangoRectangle(), logical = PangoRectangle()
                pango_layout_get_pixel_extents(layout, &ink, &logical)
                XCTAssertLessThanOrEqual(logical.width, gtk_widget_get_width(label), "“\(text)” fits its label")
            }
        }
    }

    func testThePrintersCamerasHaveOneHeadingWhateverTheType() throws {
        try MainActor.assumeIsolated {
            let dialog = PrinterDialog(parent: nil, editing: nil)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            gtk_window_set_default_size(gcast(dialog.window), 520, 1180)
            dialog.present()
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(dialog.window) != 0 })
            for choice in PrinterChoice.all {
                dialog.select(choice)
                _ = iterateMainContext(timeout: 1) { false }
                let headings = descendants(of: dialog.window).filter { widget in
                    Bool(gboolean: gtk_widget_has_css_class(widget, "heading")) && gtk_widget_get_mapped(widget) != 0
                }.map { String(cString: gtk_label_get_text(gcast($0))) }
                XCTAssertEqual(headings.filter { $0.hasPrefix("Cameras") }.count, 1, "\(choice.title): \(headings)")
                if choice == .klipper {
                    gtk_widget_grab_focus(dialog.cameraList.findButton)
                    _ = iterateMainContext(timeout: 1) { false }
                    ScreenCapture.saveIfAsked(as: "camera-heading-klipper")
                }
            }
        }
    }

    private func cssName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_widget_get_css_name(widget))
    }
}
