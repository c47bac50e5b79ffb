@testable import LayerwatchApp
import XCTest

/// Without a GPU render node the app asks GTK for the cairo renderer, unless the user chose one.
final class SoftwareGLTests: XCTestCase {
    func testCairoWithoutARenderNodeUnlessTheUserChose() {
        XCTAssertEqual(SoftwareGL.preferredRenderer(userChoice: nil, deviceNodes: []), "cairo")
        XCTAssertEqual(SoftwareGL.preferredRenderer(userChoice: "", deviceNodes: ["card0"]), "cairo", "a card without a render node")
        XCTAssertNil(SoftwareGL.preferredRenderer(userChoice: nil, deviceNodes: ["card0", "renderD128"]), "a GPU: GTK's choice")
        XCTAssertNil(SoftwareGL.preferredRenderer(userChoice: "gl", deviceNodes: []), "the user's choice stands")
    }
}
