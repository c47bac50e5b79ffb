import Foundation
import Glibc
import PrinterKit
import TestSupport
import XCTest

/// Hostile or damaged `printers.json` files that once crashed, hung or exposed the app: numbers out
/// of any window's range, a FIFO in place of the file, and a file others could read.
final class ConfigHardeningTests: XCTestCase {
    private var directory: URL!
    private var file: URL { directory.appendingPathComponent("printers.json") }

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
    }

    func testWindowSizesOutOfRangeAreBroughtIntoRange() throws {
        let id = "6F9619FF-8B86-D011-B42D-00CF4FC964FF"
        try Data("""
        {"formatVersion": 1,
         "printers": [{"id": "\(id)", "name": "Cam", "kind": "generic", "url": "rtsp://127.0.0.1/x"}],
         "window": {"width": 4294967296, "height": -7, "maximized": false},
         "miniWindows": [{"printerID": "\(id)", "width": 99999999999, "height": 0}]}
        """.utf8).write(to: file)
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.config.window, .init(width: 8192, height: 100, maximized: false))
        XCTAssertEqual(loaded.config.miniWindows.map { [$0.width, $0.height] }, [[8192, 100]])
    }

    func testAFIFOInPlaceOfTheFileIsSetAsideWithoutWaitingForAWriter() throws {
        XCTAssertEqual(mkfifo(file.path, 0o600), 0)
        let store = ConfigStore(directory: directory, secrets: nil)
        let loaded = expectation(description: "load returns")
        nonisolated(unsafe) var problem: String?
        Thread.detachNewThread {
            problem = store.load().problem
            loaded.fulfill()
        }
        wait(for: [loaded], timeout: 5)
        XCTAssertTrue(problem?.contains("(it is not a regular file)") ?? false, problem ?? "no problem reported")
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertEqual(kept.count, 1)
        XCTAssertTrue(kept[0].hasPrefix("printers.json.broken-"), kept[0])
        var status = stat()
        XCTAssertEqual(lstat(directory.appendingPathComponent(kept[0]).path, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "the FIFO itself was kept")
        try store.save(Fixtures.config)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config, Fixtures.config)
    }

    func testAFileOthersCanReadIsMadeOwnerOnlyAtStart() throws {
        try ConfigStore(directory: directory, secrets: nil).save(Fixtures.config)
        XCTAssertEqual(chmod(file.path, 0o644), 0)
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertEqual(loaded.config, Fixtures.config)
        XCTAssertEqual(try permissions(file), 0o600)
    }

    func testABrokenCopyIsOwnerOnly() throws {
        try Data(#"{"formatVersion": 1, "printers": [{"accessCode": "12345678""#.utf8).write(to: file)
        XCTAssertEqual(chmod(file.path, 0o664), 0)
        XCTAssertNotNil(ConfigStore(directory: directory, secrets: nil).load().problem)
        let kept = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        XCTAssertTrue(kept.hasPrefix("printers.json.broken-"), kept)
        XCTAssertEqual(try permissions(directory.appendingPathComponent(kept)), 0o600)
    }
}
