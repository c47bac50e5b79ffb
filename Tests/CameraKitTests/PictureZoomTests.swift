@testable import CameraKit
import StreamKit
import XCTest

/// Zoom's arithmetic, without a window: the point under the pointer stays, the scale keeps between
/// the whole picture and 8×, a pan keeps the view inside the picture, the keys step by √2, and a
/// turned or mirrored camera is asked for the part of its stream in view.
final class PictureZoomTests: XCTestCase {
    func testZoomArithmetic() {
        let twice = PictureZoom.fitted.zoomed(by: 2, about: (0.25, 0.75))
        XCTAssertEqual(twice.visible, PictureRegion(x: 0.125, y: 0.375, width: 0.5, height: 0.5), "the point under (0.25, 0.75) stays")
        XCTAssertEqual(PictureZoom.fitted.zoomed(by: 100).visible.width, 1 / PictureZoom.maximum, "at most 8×")
        XCTAssertEqual(twice.zoomed(by: 0.1), .fitted, "at least the whole picture")
        XCTAssertEqual(twice.panned(byX: 1, y: -1).visible, PictureRegion(x: 0, y: 0.5, width: 0.5, height: 0.5), "kept inside")
        XCTAssertEqual(PictureZoom.fitted.stepped(in: true).stepped(in: true).label, "2×")
        XCTAssertEqual(PictureZoom.fitted.stepped(in: true).label, "1.4×")
        XCTAssertEqual(PictureZoom.fitted.stepped(in: false), .fitted)
        XCTAssertEqual(twice.zoomed(by: .nan), twice)
        // A quarter turn clockwise: the upright picture's top-right quarter is the stream's top-left.
        let turned = PictureOrientation(rotation: 90, flipHorizontal: false, flipVertical: false)
        XCTAssertEqual(turned.streamRegion(ofUpright: PictureRegion(x: 0.5, y: 0, width: 0.5, height: 0.5)),
                       PictureRegion(x: 0, y: 0, width: 0.5, height: 0.5))
        let mirrored = PictureOrientation(rotation: 0, flipHorizontal: true, flipVertical: false)
        XCTAssertEqual(mirrored.streamRegion(ofUpright: PictureRegion(x: 0, y: 0, width: 0.25, height: 0.5)),
                       PictureRegion(x: 0.75, y: 0, width: 0.25, height: 0.5))
    }
}
