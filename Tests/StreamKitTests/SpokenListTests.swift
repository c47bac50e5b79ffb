import StreamKit
import XCTest

/// Lists read as a sentence says them.
final class SpokenListTests: XCTestCase {
    func testAListIsJoinedWithCommasAndItsLastWord() {
        XCTAssertEqual(SpokenList.all([]), "")
        XCTAssertEqual(SpokenList.all(["Elegoo"]), "Elegoo")
        XCTAssertEqual(SpokenList.all(["Elegoo", "Prusa"]), "Elegoo and Prusa")
        XCTAssertEqual(SpokenList.all(["Elegoo", "Flashforge", "Prusa"]), "Elegoo, Flashforge and Prusa")
        XCTAssertEqual(SpokenList.either(["bambu://", "moonraker://", "elegoo://"]), "bambu://, moonraker:// or elegoo://")
    }
}
