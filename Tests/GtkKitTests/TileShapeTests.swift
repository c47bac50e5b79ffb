@testable import GtkKit
import XCTest

/// The farm grid's shape on its own: tiles whose 16:9 picture sits above 96 px of captions (so a
/// tile `w` wide is 96 + 9w/16 high), in the grid's 320 px minimum, six columns at most, 12 px apart.
final class TileShapeTests: XCTestCase {
    private let tile = TileShape.Height((320, 96 + 180), (1600, 96 + 900))

    private func shape(tiles: Int, width: Int32, fitHeight: Int32) -> TileShape {
        TileShape.choose(width: width, fitHeight: fitHeight, heights: Array(repeating: tile, count: tiles), minimumTileWidth: 320,
                         maximumColumns: 6, spacing: 12)
    }

    func testATileIsALineInItsWidth() {
        XCTAssertEqual(tile.at(640), 96 + 360)
        XCTAssertEqual(TileShape.Height((320, 200), (320, 200)).at(1000), 200, "one width measured: a flat line")
    }

    func testFourTilesInAMaximisedWindowAreTwoRowsOfTwoFillingItsHeight() {
        // A 1600×1000 window's grid: 1576 wide, 930 seen. Four columns (the most that fit) would
        // be 385 px tiles in one row 313 px high; two rows of two fit tiles up to
        // (930 - 12) / 2 = 459 px high, 645 px wide.
        let four = shape(tiles: 4, width: 1576, fitHeight: 930)
        XCTAssertEqual(four, TileShape(columns: 2, tileWidth: 645))
        XCTAssertLessThanOrEqual(2 * tile.at(645) + 12, 930)
        XCTAssertGreaterThan(2 * tile.at(646) + 12, 930, "the widest that fits")
    }

    func testOneTileTakesTheWholeHeightAndTilesNeverOutgrowTheirColumn() {
        XCTAssertEqual(shape(tiles: 1, width: 1576, fitHeight: 930), TileShape(columns: 1, tileWidth: 1482), "(930 - 96) × 16/9")
        // Six tiles in 1500×1000: two rows of three at the column's full width (484 px), which
        // beats three rows of two (366 px) and two rows of four (360 px).
        XCTAssertEqual(shape(tiles: 6, width: 1476, fitHeight: 930), TileShape(columns: 3, tileWidth: 484))
    }

    func testWhenTheTilesCannotAllFitTheMostColumnsAtTheirFullWidthScroll() {
        // Sixteen tiles 1000 px high: no count fits them at 320 px; five columns (the most of 320 px) of 365.
        XCTAssertEqual(shape(tiles: 16, width: 1876, fitHeight: 1000), TileShape(columns: 5, tileWidth: 365))
        // A low window: four tiles in one row of four.
        XCTAssertEqual(shape(tiles: 4, width: 1476, fitHeight: 430), TileShape(columns: 4, tileWidth: 360))
        // A narrow one: one column.
        XCTAssertEqual(shape(tiles: 3, width: 426, fitHeight: 430), TileShape(columns: 1, tileWidth: 426))
    }

    func testWithoutAKnownHeightTheMostColumns() {
        XCTAssertEqual(shape(tiles: 4, width: 1576, fitHeight: 0), TileShape(columns: 4, tileWidth: 385))
        XCTAssertEqual(shape(tiles: 0, width: 1576, fitHeight: 930), TileShape(columns: 1, tileWidth: 1576))
    }
}
