@testable import CameraKit
import XCTest

/// A snapshot's pixels turned upright off the main loop land where the paintable draws them.
final class PictureOrientationTests: XCTestCase {
    func testUprightMovesEveryPixelWhereTheDrawingPutsIt() {
        let source: [UInt32] = [0, 1, 2, 3, 4, 5]  // 3×2: rows [0 1 2] and [3 4 5]
        func upright(_ rotation: Int, flipH: Bool = false, flipV: Bool = false) -> [UInt32] {
            let turned = source.withUnsafeBytes {
                PictureOrientation(rotation: rotation, flipHorizontal: flipH, flipVertical: flipV)
                    .upright($0.baseAddress!, width: 3, height: 2, stride: 12)
            }
            XCTAssertEqual(turned.width * turned.height, 6)
            return turned.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        }
        XCTAssertEqual(upright(0), [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(upright(90), [3, 0, 4, 1, 5, 2], "clockwise: 2 wide, 3 high")
        XCTAssertEqual(upright(180), [5, 4, 3, 2, 1, 0])
        XCTAssertEqual(upright(270), [2, 5, 1, 4, 0, 3])
        XCTAssertEqual(upright(0, flipH: true), [2, 1, 0, 5, 4, 3])
        XCTAssertEqual(upright(0, flipV: true), [3, 4, 5, 0, 1, 2])
        XCTAssertEqual(upright(90, flipH: true), [5, 2, 4, 1, 3, 0], "flipped first, then turned")
    }
}
