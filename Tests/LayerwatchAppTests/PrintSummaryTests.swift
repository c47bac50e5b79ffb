import Foundation
@testable import LayerwatchApp
import StatusKit
import XCTest

/// The strip's figures read as the printer reports them.
final class PrintSummaryTests: XCTestCase {
    /// Every whole percentage reads as itself (58 % used to read 57 %: 0.58 × 100 floored), a
    /// fraction is floored (99.6 % is not yet 100 %), and the bar's fraction follows.
    func testThePercentageIsThePrintersOwn() {
        for percent in 0...100 {
            let summary = PrintSummary(PrinterStatus(state: .printing, job: "Benchy", progress: Double(percent)), end: nil)
            XCTAssertEqual(summary.percent, "\(percent) %")
            XCTAssertEqual(summary.fraction ?? -1, Double(percent) / 100, accuracy: 1e-12)
        }
        XCTAssertEqual(PrintSummary(PrinterStatus(state: .printing, progress: 99.6), end: nil).percent, "99 %")
    }
}
