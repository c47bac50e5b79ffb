import CGtk
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

    /// The colour of SMPTE bar `index` (0 grey … 6 blue) as a name, or nil for another colour.
    private static func bar(_ pixel: (r: Int, g: Int, b: Int)) -> String? {
        let (r, g, b) = (pixel.r > 120, pixel.g > 120, pixel.b > 120)
        let low = (pixel.r < 60 || r, pixel.g < 60 || g, pixel.b < 60 || b)
        guard low == (true, true, true) else { return nil }
        switch (r, g, b) {
        case (true, true, true): return "grey"
        case (true, true, false): return "yellow"
        case (false, true, true): return "cyan"
        case (false, true, false): return "green"
        case (true, false, true): return "magenta"
        case (true, false, false): return "red"
        case (false, false, true): return "blue"
        default: return nil
        }
    }

    /// Shows the bars with `orientation` and reads the bar at (x, y), fractions of the drawn picture.
    @MainActor
    private func bars(_ orientation: PictureOrientation, at points: [(x: Double, y: Double)]) throws -> [String?] {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let session = try makeSession(clip.path)
        let shown = PageWindow(name: "Sideways", session: session, width: 800, height: 700, orientation: orientation)
        defer { shown.close() }
        let picture = try XCTUnwrap(shown.page.surface.picture)
        XCTAssertTrue(iterateMainContext(timeout: 10) { shown.page.surface.shownFrame != nil })
        iterateFrames(10)
        let image = try XCTUnwrap(RenderedImage(of: picture))
        // Contain fit: the picture's aspect (turned when sideways), centred.
        let aspect = orientation.isSideways ? 240.0 / 320.0 : 320.0 / 240.0
        let width = min(Double(image.width), Double(image.height) * aspect), height = width / aspect
        let left = (Double(image.width) - width) / 2, top = (Double(image.height) - height) / 2
        return points.map { Self.bar(image.rgb(x: Int(left + $0.x * width), y: Int(top + $0.y * height))) }
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

    func testAPrintersSavedMountingReachesItsCamera() throws {
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", url: "http://127.0.0.1:8080/?action=stream",
                              rotation: 270, flipHorizontal: true)
        let camera = try Camera(printer: printer)
        XCTAssertEqual(camera.orientation, PictureOrientation(rotation: 270, flipHorizontal: true, flipVertical: false))
        XCTAssertEqual(camera.orientation.quarterTurns, 3)
        XCTAssertTrue(camera.orientation.isSideways)
        XCTAssertEqual(camera.orientation.frameSize(forDisplay: PixelSize(width: 300, height: 400)), PixelSize(width: 400, height: 300))
    }
}
