import Foundation
import PrinterKit
import TestSupport
import XCTest

/// A `printers.json` that cannot be read: the app starts empty, says why, and the file survives
/// under `printers.json.broken-<time>`, never overwritten.
final class ConfigRecoveryTests: XCTestCase {
    func testCorruptJSON() throws {
        try assertSetAside(Data(#"{"formatVersion": 1, "printers": [{"id": "#.utf8), reason: "(it is not valid JSON)")
    }

    func testEmptyFile() throws {
        try assertSetAside(Data(), reason: "(it is empty)")
    }

    func testNewerFormatVersionIsKeptNotRead() throws {
        let future = Data(#"{"formatVersion": 4, "printers": [], "cloudAccounts": [{"token": "t"}]}"#.utf8)
        try assertSetAside(future, reason: "(it was written by a newer Layerwatch (format 4))")
    }

    func testMissingFormatVersionIsNamed() throws {
        let json = Data(#"{"printers": [{"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "a", "kind": "generic"}]}"#.utf8)
        try assertSetAside(json, reason: "(formatVersion is missing)")
    }

    /// A printer list that is not a list has no printer to keep (one unreadable printer costs only
    /// itself: `ConfigLenientReadingTests`).
    func testPrintersNotAListIsNamed() throws {
        try assertSetAside(Data(#"{"formatVersion": 2, "printers": {"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF"}}"#.utf8),
                           reason: "(printers has the wrong type)")
    }

    func testFolderInPlaceOfTheFile() throws {
        let directory = try makeTemporaryDirectory()
        let folder = directory.appendingPathComponent("printers.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))

        let store = ConfigStore(directory: directory, secrets: nil)
        let loaded = store.load()
        XCTAssertEqual(loaded.config, AppConfig())
        let problem = try XCTUnwrap(loaded.problem)
        XCTAssertTrue(problem.contains("(it is a folder, not a file)"), problem)
        let kept = try brokenCopies(in: directory)
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent(kept[0]).appendingPathComponent("notes.txt")),
                       Data("notes".utf8))
        try store.save(Fixtures.config)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config, Fixtures.config)
    }

    func testSecondBrokenFileDoesNotReplaceTheFirst() throws {
        let directory = try makeTemporaryDirectory()
        let file = directory.appendingPathComponent("printers.json")
        try Data("first".utf8).write(to: file)
        XCTAssertNotNil(ConfigStore(directory: directory, secrets: nil).load().problem)
        try Data("second".utf8).write(to: file)
        let problem = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().problem)

        let kept = try brokenCopies(in: directory)
        XCTAssertEqual(kept.count, 2)
        let contents = try Set(kept.map { String(decoding: try Data(contentsOf: directory.appendingPathComponent($0)), as: UTF8.self) })
        XCTAssertEqual(contents, ["first", "second"])
        // Within one second the second copy gets a -2 suffix; the banner names the one it made.
        let second = try XCTUnwrap(kept.first { (try? Data(contentsOf: directory.appendingPathComponent($0))) == Data("second".utf8) })
        XCTAssertTrue(problem.contains("The file was kept as \(second) in \(directory.path)."), problem)
    }

    func testRefusesToSaveOverAFileItCouldNotMoveAside() throws {
        let deep = try makeFolderTooDeepForACopy()
        let file = deep.appendingPathComponent("printers.json")
        try Data("{ broken".utf8).write(to: file)

        let store = ConfigStore(directory: deep, secrets: nil)
        let problem = try XCTUnwrap(store.load().problem)
        XCTAssertTrue(problem.contains("nor move it aside"), problem)
        XCTAssertThrowsError(try store.save(Fixtures.config)) { error in
            XCTAssertEqual("\(error)", problem)
        }
        XCTAssertEqual(try Data(contentsOf: file), Data("{ broken".utf8))
    }

    /// Loads a directory whose printers.json holds `bytes` and checks the app starts empty, the
    /// banner gives `reason`, the bytes survive in one `.broken-` copy, and saving works again.
    private func assertSetAside(_ bytes: Data, reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try makeTemporaryDirectory()
        try bytes.write(to: directory.appendingPathComponent("printers.json"))
        let store = ConfigStore(directory: directory, secrets: nil)

        let loaded = store.load()
        XCTAssertEqual(loaded.config, AppConfig(), file: file, line: line)
        let problem = try XCTUnwrap(loaded.problem, file: file, line: line)
        XCTAssertTrue(problem.hasPrefix("Layerwatch could not read its printer list \(reason) and started without printers."),
                      problem, file: file, line: line)
        let kept = try brokenCopies(in: directory)
        XCTAssertEqual(kept.count, 1, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent(kept[0])), bytes, file: file, line: line)
        XCTAssertTrue(problem.contains(kept[0]), problem, file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), kept, file: file, line: line)

        try store.save(Fixtures.config)
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent(kept[0])), bytes, file: file, line: line)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config, Fixtures.config, file: file, line: line)
    }

    /// Names of `printers.json.broken-yyyyMMdd-HHmmss[-n]` entries, sorted.
    private func brokenCopies(in directory: URL) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"^printers\.json\.broken-\d{8}-\d{6}(-\d+)?$"#)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            pattern.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
        }.sorted()
    }
}
