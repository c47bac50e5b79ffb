@testable import GtkKit
import TestSupport
import XCTest

/// The arrangement decision on its own: which arrangement shows a 16:9 video larger next to a 50 px
/// bar, and the margin that keeps a window near the crossover from flapping.
final class AdaptiveLayoutArrangementTests: XCTestCase {
    private let bar = 50.0
    private let aspect = 16.0 / 9.0

    func testWideAreaMovesTheBarBesideAndTallAreaMovesItBelow() {
        XCTAssertEqual(preferred(from: .below, width: 1400, height: 600), .beside)
        XCTAssertEqual(preferred(from: .beside, width: 600, height: 900), .below)
        XCTAssertEqual(preferred(from: .beside, width: 1400, height: 600), .beside)
        XCTAssertEqual(preferred(from: .below, width: 600, height: 900), .below)
    }

    func testVideoAreaFitsTheWholeVideoIntoWhatTheBarLeaves() {
        // Below: 1000 × 550 left; the 16:9 video is limited by the height: 977.8 × 550.
        XCTAssertEqual(AdaptiveLayout.Arrangement.below.videoArea(width: 1000, height: 600, barThickness: bar,
                                                                 contentAspectRatio: aspect),
                       550 * aspect * 550, accuracy: 0.01)
        // Beside: 950 × 600 left; limited by the width: 950 × 534.4.
        XCTAssertEqual(AdaptiveLayout.Arrangement.beside.videoArea(width: 1000, height: 600, barThickness: bar,
                                                                  contentAspectRatio: aspect),
                       950 * 950 / aspect, accuracy: 0.01)
        XCTAssertEqual(AdaptiveLayout.Arrangement.beside.videoArea(width: 40, height: 600, barThickness: bar,
                                                                  contentAspectRatio: aspect), 0)
    }

    func testTwoPercentEitherSideOfTheCrossoverKeepsEitherArrangement() {
        // Both arrangements give the video the same area where width = bar + (height - bar) * aspect.
        let height = 700.0
        let crossover = bar + (height - bar) * aspect
        for width in [crossover * 0.98, crossover, crossover * 1.02] {
            XCTAssertEqual(preferred(from: .below, width: width, height: height), .below, "width \(width)")
            XCTAssertEqual(preferred(from: .beside, width: width, height: height), .beside, "width \(width)")
        }
        XCTAssertEqual(preferred(from: .below, width: crossover * 1.05, height: height), .beside)
        XCTAssertEqual(preferred(from: .beside, width: crossover * 0.95, height: height), .below)
    }

    private func preferred(from current: AdaptiveLayout.Arrangement, width: Double, height: Double)
        -> AdaptiveLayout.Arrangement {
        current.preferred(width: width, height: height, barThickness: bar, contentAspectRatio: aspect)
    }
}
