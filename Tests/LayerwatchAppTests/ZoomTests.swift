import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// Zoom and pan, as a user does them: the zoomed picture on screen shows the bars that are in that
/// part of the picture, converted from the source's own pixels at the view's size (the frame shows
/// only the region in sight), with the same picture widget and the same connection; the wheel
/// zooms about the pointer, a drag pans, a double-click and `0` fit, `+`/`-` step, in the tab and
/// in a mini window, each on its own.
final class ZoomTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAZoomedTabShowsItsRegionConvertedAtTheViewsSize() throws {
        let clip = try TestClips.smpteBars(width: 1280, height: 720, fps: 15, seconds: 10)
        let session = try makeSession(clip.path)
        try MainActor.assumeIsolated {
            let shown = PageWindow(name: "Bars", session: session, width: 600, height: 420)
            defer { shown.close() }
            let surface = shown.page.surface
            let picture = try XCTUnwrap(surface!.picture), parent = gtk_widget_get_parent(picture)
            // The first picture may come before the layout gave the view its size: wait for one at it.
            XCTAssertTrue(iterateMainContext(timeout: 10) { surface!.shownFrame?.region.width == 1280 && (surface!.shownFrame?.width ?? .max) < 640 })
            let fitted = try XCTUnwrap(surface!.shownFrame)
            XCTAssertLessThan(fitted.width, 640, "a 600 px window shows the 1280 px stream scaled down")
            XCTAssertNil(surface!.zoomIndicatorText, "no indicator while fitted")

            // 2× into the top-right quarter: 640×360 source pixels in the same view.
            surface!.setZoom(PictureZoom.fitted.zoomed(by: 2, about: (1, 0)))
            XCTAssertEqual(surface!.zoom.visible, PictureRegion(x: 0.5, y: 0, width: 0.5, height: 0.5))
            XCTAssertTrue(iterateMainContext(timeout: 5) { surface!.shownFrame?.region == PixelRect(x: 640, y: 0, width: 640, height: 360) },
                          "frames of the region in sight: \(String(describing: surface!.shownFrame?.region))")
            let twice = try XCTUnwrap(surface!.shownFrame)
            XCTAssertEqual(twice.width, fitted.width, "converted at the view's size, from 640 source pixels instead of 1280")
            XCTAssertEqual(surface!.zoomIndicatorText, "2×")
            iterateFrames(5)
            let image = try XCTUnwrap(RenderedImage(of: picture))
            let drawn = Self.drawnRect(image, aspectRatio: 16.0 / 9)
            // Source x = 640 + 640 f: green (3) at f = 0.1, red (5) at 0.5, blue (6) at 0.9.
            XCTAssertEqual([0.1, 0.5, 0.9].map { image.barName(x: Int(drawn.x + $0 * drawn.width), y: Int(drawn.y + 0.3 * drawn.height)) },
                           ["green", "red", "blue"])

            // 4×: 320×180 source pixels, enlarged to the view's size before the colour conversion.
            surface!.setZoom(PictureZoom.fitted.zoomed(by: 4, about: (1, 0)))
            XCTAssertTrue(iterateMainContext(timeout: 5) { surface!.shownFrame?.region == PixelRect(x: 960, y: 0, width: 320, height: 180) })
            XCTAssertEqual(surface!.shownFrame?.width, fitted.width, "the view's size: drawn one to one")
            iterateFrames(5)
            let fourTimes = try XCTUnwrap(RenderedImage(of: picture))
            // Source x = 960 + 320 f: red up to 1097 (f 0.43), blue beyond.
            XCTAssertEqual([0.2, 0.8].map { fourTimes.barName(x: Int(drawn.x + $0 * drawn.width), y: Int(drawn.y + 0.5 * drawn.height)) },
                           ["red", "blue"])

            surface!.setZoom(.fitted)
            XCTAssertTrue(iterateMainContext(timeout: 5) { surface!.shownFrame?.region.width == 1280 })
            XCTAssertEqual(surface!.shownFrame?.width, fitted.width)
            XCTAssertEqual(surface!.picture, picture, "zooming never recreates the picture")
            XCTAssertEqual(gtk_widget_get_parent(picture), parent, "nor moves it")
            XCTAssertEqual(surface!.lifecycle.dismantles, 0)
            XCTAssertEqual(session.consumerCount, 1)
        }
    }

    func testWheelDragDoubleClickAndKeysZoomTheTabAndTheMiniWindow() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 1280, height: 720, fps: 15, seconds: 10)
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "Bars", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: [printer], window: .init(width: 1000, height: 700, maximized: false)))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            let surface = page.surface
            XCTAssertTrue(iterateMainContext(timeout: 10) { surface!.shownFrame != nil })
            // The window manager has placed and activated the window before the pointer comes.
            _ = iterateMainContext(timeout: 5) { Bool(gboolean: gtk_window_is_active(gcast(window.window))) }
            _ = iterateMainContext(timeout: 1) { false }
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            let pointer = Pointer(widget: surface!.widget)
            let width = Double(gtk_widget_get_width(surface!.widget)), height = Double(gtk_widget_get_height(surface!.widget))

            // Two wheel clicks over a point: 2×, that point of the picture still under the pointer.
            let (x, y) = (width * 0.8, height * 0.4)
            let under = try XCTUnwrap(surface!.picturePoint(x: x, y: y))
            XCTAssertEqual(pointer.at(x, y, then: ["click", "4", "click", "4"]), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { abs(surface!.zoom.visible.width - 0.5) < 0.01 }, "\(surface!.zoom)")
            let visible = surface!.zoom.visible
            XCTAssertEqual(visible.x + under.x * visible.width, under.x, accuracy: 0.01, "the picture's point stays under the pointer")
            XCTAssertEqual(visible.y + under.y * visible.height, under.y, accuracy: 0.01)
            XCTAssertEqual(surface!.zoomIndicatorText, "2×")

            // A drag to the left brings more of the right side into view.
            XCTAssertEqual(pointer.drag(from: width * 0.5, height * 0.5, by: -200, 0), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { surface!.zoom.visible.x > visible.x + 0.05 || surface!.zoom.visible.x >= 0.4999 },
                          "panned right: \(surface!.zoom.visible) after \(visible)")
            XCTAssertEqual(surface!.zoom.visible.width, 0.5, accuracy: 0.001, "a drag does not zoom")

            // A double-click fits the picture again.
            XCTAssertEqual(pointer.at(width * 0.5, height * 0.5, then: ["click", "--repeat", "2", "--delay", "80", "1"]), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { surface!.zoom.isFitted }, "\(surface!.zoom)")

            // Keys: + + − 0.
            XCTAssertEqual(Keyboard.press("plus", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { abs(surface!.zoom.visible.width - 1 / 2.0.squareRoot()) < 0.001 })
            XCTAssertEqual(Keyboard.press("plus", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { abs(surface!.zoom.visible.width - 0.5) < 0.001 })
            XCTAssertEqual(Keyboard.press("minus", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { abs(surface!.zoom.visible.width - 1 / 2.0.squareRoot()) < 0.001 })
            XCTAssertEqual(Keyboard.press("0", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { surface!.zoom.isFitted })

            // The mini window zooms on its own, on the same connection.
            XCTAssertEqual(Keyboard.press("ctrl+shift+p", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.miniWindows[printer.id]?.surface.shownFrame != nil })
            let mini = try XCTUnwrap(app.miniWindows[printer.id])
            let miniXID = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(mini.window))))
            XCTAssertEqual(Keyboard.press("plus", window: miniXID), 0)
            XCTAssertEqual(Keyboard.press("plus", window: miniXID), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { abs(mini.surface.zoom.visible.width - 0.5) < 0.001 }, "\(mini.surface.zoom)")
            XCTAssertTrue(surface!.zoom.isFitted, "the tab keeps its own zoom")
            XCTAssertTrue(iterateMainContext(timeout: 5) { mini.surface.shownFrame?.region.width == 640 }, "the mini window gets its region")
            ScreenCapture.saveIfAsked(as: "zoom-keys-mini-window")
            XCTAssertEqual(surface!.session.consumerCount, 3, "tab, farm tile and mini window on one session")
            mini.close()

            // The farm's tiles do not zoom: with the keyboard on a tile, the zoom keys reach no picture.
            window.setFarmShown(true)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.farm.focusedTile != nil }, "a tile has the keyboard")
            XCTAssertEqual(Keyboard.press("plus", window: xid), 0)
            _ = iterateMainContext(timeout: 1) { false }
            XCTAssertTrue(surface!.zoom.isFitted, "the tab's picture is not zoomed from the farm")
            window.setFarmShown(false)
        }
        withExtendedLifetime(windowManager) {}
    }

    /// Where a contain-fit picture of `aspectRatio` is drawn in `image`.
    private static func drawnRect(_ image: RenderedImage, aspectRatio: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let width = min(Double(image.width), Double(image.height) * aspectRatio), height = width / aspectRatio
        return ((Double(image.width) - width) / 2, (Double(image.height) - height) / 2, width, height)
    }
}
