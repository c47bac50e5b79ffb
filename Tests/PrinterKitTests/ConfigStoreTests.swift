import Foundation
import PrinterKit
import TestSupport
import XCTest

/// Saving and restoring `printers.json`: what comes back, where it lives, and how it is written.
final class ConfigStoreTests: XCTestCase {
    func testRestoresPrintersTabOrderWindowAndMiniWindows() throws {
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(Fixtures.config)

        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.config, Fixtures.config)
        XCTAssertEqual(loaded.config.printers.map(\.name), ["P1S garage", "Octo cam", "X1C workshop"])
        XCTAssertEqual(loaded.config.window, .init(width: 1400, height: 900, maximized: true))

        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("printers.json")))
        let object = try XCTUnwrap(json as? [String: Any])
        XCTAssertEqual(object["formatVersion"] as? Int, 3)
        let printers = try XCTUnwrap(object["printers"] as? [[String: Any]])
        XCTAssertEqual(printers.map { $0["kind"] as? String }, ["bambuJPEG", "generic", "bambuRTSPS"])
        XCTAssertEqual(printers.map { $0["model"] as? String }, ["C12", nil, "BL-P001"])
    }

    func testRemembersThatTheKeepAboveHintWasShown() throws {
        let directory = try makeTemporaryDirectory()
        var config = Fixtures.config
        XCTAssertFalse(config.keepAboveHintShown)
        config.keepAboveHintShown = true
        try ConfigStore(directory: directory, secrets: nil).save(config)
        XCTAssertTrue(ConfigStore(directory: directory, secrets: nil).load().config.keepAboveHintShown)
    }

    func testNoFileStartsEmptyWithoutAProblem() throws {
        let loaded = ConfigStore(directory: try makeTemporaryDirectory().appendingPathComponent("layerwatch"), secrets: nil).load()
        XCTAssertEqual(loaded.config, AppConfig())
        XCTAssertNil(loaded.problem)
    }

    func testFileIsOwnerOnlyAndNoTemporaryFileRemains() throws {
        let directory = try makeTemporaryDirectory().appendingPathComponent("layerwatch")
        let store = ConfigStore(directory: directory, secrets: nil)
        try store.save(Fixtures.config)
        var changed = Fixtures.config
        changed.printers.removeFirst()
        changed.miniWindows.removeLast()
        try store.save(changed)

        XCTAssertEqual(try permissions(store.fileURL), 0o600)
        XCTAssertEqual(try permissions(directory), 0o700)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["printers.json"])
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config, changed)
    }

    func testReplacesAWorldReadableFileWithAnOwnerOnlyOne() throws {
        let directory = try makeTemporaryDirectory()
        let file = directory.appendingPathComponent("printers.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data("{}".utf8),
                                                     attributes: [.posixPermissions: 0o644]))
        try ConfigStore(directory: directory, secrets: nil).save(Fixtures.config)
        XCTAssertEqual(try permissions(file), 0o600)
    }

    func testFailedSaveLeavesWhatWasThereAndNoTemporaryFile() throws {
        let directory = try makeTemporaryDirectory()
        // A non-empty folder named printers.json: the final rename cannot replace it.
        let blocker = directory.appendingPathComponent("printers.json")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: blocker.appendingPathComponent("inside"))

        XCTAssertThrowsError(try ConfigStore(directory: directory, secrets: nil).save(Fixtures.config)) { error in
            XCTAssertTrue("\(error)".hasPrefix("Layerwatch could not save its printer list: cannot replace"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["printers.json"])
        XCTAssertEqual(try Data(contentsOf: blocker.appendingPathComponent("inside")), Data("keep".utf8))
    }

    func testSavingThroughASymbolicLinkKeepsTheLink() throws {
        let directory = try makeTemporaryDirectory()
        let dotfiles = directory.appendingPathComponent("dotfiles")
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: false)
        let target = dotfiles.appendingPathComponent("layerwatch.json")
        let config = directory.appendingPathComponent("layerwatch")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(at: config.appendingPathComponent("printers.json"), withDestinationURL: target)
        try Data("{}".utf8).write(to: target)

        try ConfigStore(directory: config, secrets: nil).save(Fixtures.config)

        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: config.appendingPathComponent("printers.json").path), target.path)
        XCTAssertEqual(try permissions(target), 0o600)
        XCTAssertEqual(ConfigStore(directory: config, secrets: nil).load().config, Fixtures.config)
    }

    func testLivesInXDGConfigHomeOrDotConfig() {
        XCTAssertEqual(ConfigStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/srv/cfg", "HOME": "/home/ada"]).path,
                       "/srv/cfg/layerwatch")
        // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
        XCTAssertEqual(ConfigStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/ada"]).path,
                       "/home/ada/.config/layerwatch")
        XCTAssertEqual(ConfigStore.defaultDirectory(environment: ["HOME": "/home/ada"]).path, "/home/ada/.config/layerwatch")
        XCTAssertEqual(ConfigStore(directory: URL(fileURLWithPath: "/srv/cfg/layerwatch"), secrets: nil).fileURL.path,
                       "/srv/cfg/layerwatch/printers.json")
    }

    func testDropsSelectionAndMiniWindowsOfPrintersNotInTheList() throws {
        let directory = try makeTemporaryDirectory()
        let stranger = UUID()
        let json = """
        {"formatVersion": 1, "printers": [], "selectedPrinterID": "\(stranger)",
         "miniWindows": [{"printerID": "\(stranger)", "width": 480, "height": 270}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.config, AppConfig())
    }
}
