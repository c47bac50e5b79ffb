@testable import LayerwatchApp
import XCTest

/// Without a GPU render node the app asks GTK for the cairo renderer, unless the user chose one;
/// drawing with cairo, GDK's OpenGL is turned off unless the user's GDK_DEBUG says something of GL.
final class SoftwareGLTests: XCTestCase {
    func testCairoWithoutARenderNodeUnlessTheUserChose() {
        XCTAssertEqual(SoftwareGL.preferredRenderer(userChoice: nil, deviceNodes: []), "cairo")
        XCTAssertEqual(SoftwareGL.preferredRenderer(userChoice: "", deviceNodes: ["card0"]), "cairo", "a card without a render node")
        XCTAssertNil(SoftwareGL.preferredRenderer(userChoice: nil, deviceNodes: ["card0", "renderD128"]), "a GPU: GTK's choice")
        XCTAssertNil(SoftwareGL.preferredRenderer(userChoice: "gl", deviceNodes: []), "the user's choice stands")
    }

    func testOpenGLIsTurnedOffOnlyWhenCairoDraws() {
        XCTAssertEqual(SoftwareGL.debugFlags(renderer: "cairo", userFlags: nil), "gl-disable")
        XCTAssertEqual(SoftwareGL.debugFlags(renderer: "cairo", userFlags: "misc"), "misc,gl-disable", "the user's flags kept")
        XCTAssertNil(SoftwareGL.debugFlags(renderer: "cairo", userFlags: "gl-gles"), "the user's GL flags stand")
        XCTAssertNil(SoftwareGL.debugFlags(renderer: "gl", userFlags: nil), "drawing with GL")
        XCTAssertNil(SoftwareGL.debugFlags(renderer: nil, userFlags: nil), "GTK's choice (a GPU)")
    }
}
