@testable import CameraKit
import StreamKit
import XCTest

/// The stats readout's text: the stream's figures, then the lines its owner adds (the app's printer
/// temperatures), so the overlay shows a printer's heaters without knowing printers.
final class StatsOverlayTextTests: XCTestCase {
    func testTheOwnersLinesFollowTheStreamsFigures() {
        var stats = StreamStats()
        stats.codec = "h264"
        stats.droppedFrames = 3
        MainActor.assumeIsolated {
            let figures = StatsOverlay.format(stats).split(separator: "\n").map(String.init)
            XCTAssertTrue(figures.first?.hasPrefix("h264") ?? false, "\(figures)")
            XCTAssertTrue(figures.contains { $0.contains("3") }, "the dropped frames: \(figures)")
            let heaters = ["nozzle  215 / 220 °C", "bed     60 / 60 °C"]
            XCTAssertEqual(StatsOverlay.format(stats, extraLines: heaters).split(separator: "\n").map(String.init), figures + heaters)
        }
    }
}
