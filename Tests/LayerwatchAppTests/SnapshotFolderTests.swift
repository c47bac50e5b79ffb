@testable import LayerwatchApp
import PrinterKit
import XCTest

/// Snapshots and the config follow the same home: `$HOME`, not the password database's entry.
final class SnapshotFolderTests: XCTestCase {
    func testWithoutAnXDGPicturesFolderSnapshotsGoUnderHOME() {
        let environment = ["HOME": "/tmp/elsewhere-home"]
        XCTAssertEqual(SnapshotWriter.directory(pictures: nil, environment: environment).path,
                       "/tmp/elsewhere-home/Pictures/Layerwatch")
        XCTAssertEqual(ConfigStore.defaultDirectory(environment: environment).path, "/tmp/elsewhere-home/.config/layerwatch")
    }

    func testTheXDGPicturesFolderWins() {
        XCTAssertEqual(SnapshotWriter.directory(pictures: "/media/photos", environment: ["HOME": "/tmp/x"]).path,
                       "/media/photos/Layerwatch")
    }

    func testAnEmptyHOMEFallsBackToTheAccount() {
        XCTAssertEqual(SnapshotWriter.directory(pictures: nil, environment: ["HOME": ""]).path,
                       FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Pictures/Layerwatch").path)
    }
}
