@testable import LayerwatchApp
import PrinterKit
import XCTest

/// Snapshots, recordings and the config follow the same home: `$HOME`, not the password database's entry.
final class SnapshotFolderTests: XCTestCase {
    func testWithoutAnXDGPicturesFolderSnapshotsGoUnderHOME() {
        let environment = ["HOME": "/tmp/elsewhere-home"]
        XCTAssertEqual(SavedFiles.folder(.pictures, xdgFolder: nil, environment: environment).path,
                       "/tmp/elsewhere-home/Pictures/Layerwatch")
        XCTAssertEqual(ConfigStore.defaultDirectory(environment: environment).path, "/tmp/elsewhere-home/.config/layerwatch")
    }

    func testRecordingsGoToTheVideosFolder() {
        XCTAssertEqual(SavedFiles.folder(.videos, xdgFolder: nil, environment: ["HOME": "/tmp/elsewhere-home"]).path,
                       "/tmp/elsewhere-home/Videos/Layerwatch")
        XCTAssertEqual(SavedFiles.folder(.videos, xdgFolder: "/media/films", environment: ["HOME": "/tmp/x"]).path, "/media/films/Layerwatch")
    }

    func testTheXDGPicturesFolderWins() {
        XCTAssertEqual(SavedFiles.folder(.pictures, xdgFolder: "/media/photos", environment: ["HOME": "/tmp/x"]).path,
                       "/media/photos/Layerwatch")
    }

    func testAnEmptyHOMEFallsBackToTheAccount() {
        XCTAssertEqual(SavedFiles.folder(.pictures, xdgFolder: nil, environment: ["HOME": ""]).path,
                       FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Pictures/Layerwatch").path)
    }

    func testMessagesNameTheFolderFromTheHomeDownOrWhole() {
        let environment = ["HOME": "/home/ada"]
        XCTAssertEqual(SavedFiles.shownName(of: URL(fileURLWithPath: "/home/ada/Videos/Layerwatch"), environment: environment),
                       "Videos/Layerwatch")
        XCTAssertEqual(SavedFiles.shownName(of: URL(fileURLWithPath: "/home/adam/Shots"), environment: environment), "/home/adam/Shots")
        XCTAssertEqual(SavedFiles.shownName(of: URL(fileURLWithPath: "/srv/videos"), environment: environment), "/srv/videos")
    }

    func testThePreferencesFoldersWinOverTheDefaults() {
        var preferences = Preferences.standard
        XCTAssertEqual(SavedFiles.snapshotFolder(preferences), SavedFiles.folder(.pictures))
        XCTAssertEqual(SavedFiles.recordingFolder(preferences), SavedFiles.folder(.videos))
        preferences.snapshotFolder = "/srv/shots"
        preferences.recordingFolder = "/srv/videos"
        XCTAssertEqual(SavedFiles.snapshotFolder(preferences).path, "/srv/shots")
        XCTAssertEqual(SavedFiles.recordingFolder(preferences).path, "/srv/videos")
    }
}
