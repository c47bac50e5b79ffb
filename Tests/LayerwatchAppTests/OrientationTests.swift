import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// A camera mounted sideways or mirrored shows upright: SMPTE bars read back from the rendered
/// window turned and flipped as the printer's settings say.
final class OrientationTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// Shows the bars with `orientation` and reads the bar at (x, y), fractions of the drawn picture.
    @MainActor
    private func bars(_ orientation: PictureOrientation, at points: [(x: Double, y: Double)]) throws -> [String?] {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let session = try makeSession(clip.path)
        let shown = PageWindow(name: "Sideways", session: session, width: 800, height: 700, orientation: orientation)
        defer { shown.close() }
        return try bars(on: shown.page.surface!, orientation, at: points)
    }

    /// The bars `surface` shows of a 320×240 SMPTE picture mounted as `orientation` says, at (x, y),
    /// fractions of the drawn picture.
    @MainActor
    private func bars(on surface: CameraSurface, _ orientation: PictureOrientation, at points: [(x: Double, y: Double)]) throws -> [String?] {
        let picture = try XCTUnwrap(surface.picture)
        XCTAssertTrue(iterateMainContext(timeout: 10) { surface.shownFrame != nil })
        // A tab just reopened (after the dialog's save) has its size a moment later on a busy machine.
        XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_width(picture) > 0 && gtk_widget_get_height(picture) > 0 })
        iterateFrames(10)
        // The picture's aspect, turned when sideways.
        let aspect = orientation.isSideways ? 240.0 / 320.0 : 320.0 / 240.0
        // Read once GTK has drawn the bars: on a loaded machine that can take a few more frames
        // (until then the rendering is nil, or black where the picture will be).
        var read: [String?] = []
        XCTAssertTrue(iterateMainContext(timeout: 10) {
            guard let image = RenderedImage(of: picture) else { return false }
            read = points.map { image.barName(atFraction: $0.x, $0.y, ofPictureWithAspect: aspect) }
            return !read.contains(nil)
        }, "bars read: \(read)")
        return read
    }

    func testTheDialogsMountingIsSavedAndTurnsThePicture() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "Door", kind: .generic, cameras: [PrinterCamera(url: clip.path)], notifies: false)
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try withPrinterDialog(in: directory, editing: printer) { app, window, dialog in
            XCTAssertEqual([dialog.mounting.rotation], [0])
            XCTAssertEqual([dialog.mounting.flipHorizontal, dialog.mounting.flipVertical], [false, false])
            dialog.mounting.rotation = 90
            dialog.mounting.flipHorizontal = true
            dialog.save()
            let mounted = PictureOrientation(rotation: 90, flipHorizontal: true, flipVertical: false)
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertEqual(page.camera!.orientation, mounted, "the reopened tab shows the camera as mounted")
            // Mirrored, the blue bar is on the left; turned a quarter, the left is at the top, on the right side.
            XCTAssertEqual(try bars(on: page.surface!, mounted, at: [0.5, 3.5, 6.5].map { (0.8, $0 / 7) }), ["blue", "green", "grey"])

            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual([saved.cameras[0].rotation], [90])
            XCTAssertEqual([saved.cameras[0].flipHorizontal, saved.cameras[0].flipVertical], [true, false])
            let again = try printerDialog(of: app, editing: saved)
            XCTAssertEqual([again.mounting.rotation], [90], "the dialog shows the saved mounting")
            XCTAssertEqual([again.mounting.flipHorizontal, again.mounting.flipVertical], [true, false])
            gtk_window_destroy(gcast(again.window))
        }
    }

    func testTurnedAndFlippedCamerasShowUpright() throws {
        try MainActor.assumeIsolated {
            let stripes = [0.5, 3.5, 6.5].map { $0 / 7 }
            XCTAssertEqual(try bars(.upright, at: stripes.map { ($0, 0.3) }), ["grey", "green", "blue"], "upright: bars left to right")
            // A quarter turn clockwise: the bars run top to bottom, the left one at the top, on the right side.
            XCTAssertEqual(try bars(PictureOrientation(rotation: 90, flipHorizontal: false, flipVertical: false),
                                    at: stripes.map { (0.8, $0) }), ["grey", "green", "blue"])
            // Three quarters: the left bar at the bottom, on the left side.
            XCTAssertEqual(try bars(PictureOrientation(rotation: 270, flipHorizontal: false, flipVertical: false),
                                    at: stripes.map { (0.2, $0) }), ["blue", "green", "grey"])
            // Mirrored left-right; and upside down, which puts the bars at the bottom.
            XCTAssertEqual(try bars(PictureOrientation(rotation: 0, flipHorizontal: true, flipVertical: false),
                                    at: stripes.map { ($0, 0.3) }), ["blue", "green", "grey"])
            XCTAssertEqual(try bars(PictureOrientation(rotation: 0, flipHorizontal: false, flipVertical: true),
                                    at: stripes.map { ($0, 0.7) }), ["grey", "green", "blue"])
            XCTAssertEqual(try bars(PictureOrientation(rotation: 180, flipHorizontal: false, flipVertical: false),
                                    at: stripes.map { ($0, 0.7) }), ["blue", "green", "grey"])
        }
    }

    func testASnapshotOfATurnedCameraIsUpright() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let session = try makeSession(clip.path)
        let folder = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let shown = PageWindow(name: "Sideways", session: session, orientation: PictureOrientation(rotation: 90, flipHorizontal: false, flipVertical: false))
            defer { shown.close() }
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown.page.state == .live })
            var saved: Result<URL, SnapshotWriter.Failure>?
            shown.page.takeSnapshot(into: folder) { saved = $0 }
            XCTAssertTrue(iterateMainContext(timeout: 10) { saved != nil })
            let url = try XCTUnwrap(try saved?.get())
            let texture = try XCTUnwrap(gdk_texture_new_from_filename(url.path, nil))
            defer { g_object_unref(texture.rawGObject) }
            XCTAssertEqual(gdk_texture_get_width(texture), 240, "turned a quarter: 240 wide")
            XCTAssertEqual(gdk_texture_get_height(texture), 320)
            let image = RenderedImage(texture: texture)
            // The bars run top to bottom on the right, the left one (grey) at the top.
            XCTAssertEqual([0.5, 3.5, 6.5].map { image.barName(x: 192, y: Int($0 / 7 * 320)) }, ["grey", "green", "blue"])
        }
    }

    func testAPrintersSavedMountingReachesItsCamera() throws {
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", cameras: [PrinterCamera(url: "http://127.0.0.1:8080/?action=stream", rotation: 270, flipHorizontal: true)])
        let camera = try Camera(printer: printer, camera: printer.cameras[0])
        XCTAssertEqual(camera.orientation, PictureOrientation(rotation: 270, flipHorizontal: true, flipVertical: false))
        XCTAssertEqual(camera.orientation.quarterTurns, 3)
        XCTAssertTrue(camera.orientation.isSideways)
        XCTAssertEqual(camera.orientation.frameSize(forDisplay: PixelSize(width: 300, height: 400)), PixelSize(width: 400, height: 300))
    }
}
