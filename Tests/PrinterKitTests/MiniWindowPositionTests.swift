import Foundation
@testable import PrinterKit
import XCTest

/// A mini window's saved place (X11): kept through a save, read leniently — a file from before it
/// was kept, or with a bad or impossible position, still brings the window back, where the desktop
/// puts it.
final class MiniWindowPositionTests: XCTestCase {
    private let printer = UUID()

    private func decode(_ fields: String) throws -> AppConfig.MiniWindow {
        let json = #"{"printerID": "\#(printer)", "width": 400, "height": 225\#(fields)}"#
        return try JSONDecoder().decode(AppConfig.MiniWindow.self, from: Data(json.utf8))
    }

    func testThePositionRoundTrips() throws {
        let mini = AppConfig.MiniWindow(printerID: printer, cameraID: nil, width: 400, height: 225, x: -120, y: 840)
        let read = try JSONDecoder().decode(AppConfig.MiniWindow.self, from: JSONEncoder().encode(mini))
        XCTAssertEqual(read, mini)
    }

    func testAnOldOrBadPositionLeavesTheWindowToTheDesktop() throws {
        let old = try decode("")
        XCTAssertEqual([old.width, old.height], [400, 225])
        XCTAssertNil(old.x)
        XCTAssertNil(old.y)
        let bad = try decode(#", "x": "left", "y": 99999999"#)
        XCTAssertEqual(bad.printerID, printer, "the window is kept")
        XCTAssertNil(bad.x, "a position of the wrong type is left out")
        XCTAssertNil(bad.y, "one no X screen has is left out")
        XCTAssertEqual(try decode(#", "x": 10, "y": null"#).x, 10)
        let unplaced = try JSONSerialization.jsonObject(with: JSONEncoder().encode(old)) as? [String: Any]
        XCTAssertNil(unplaced?["x"], "no position is written for a window never placed")
    }
}
