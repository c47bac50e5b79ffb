import Foundation
import PrinterKit
import TestSupport
import XCTest

/// `printers.json` edited by hand while the store holds it: the store tells the edit (never its own
/// writes), and a save over an edit it was not told to adopt keeps the edit as
/// `printers.json.conflict-<time>`; a file edited into garbage is told, never adopted.
final class ConfigOutsideEditTests: XCTestCase {
    private let shelf = Printer(name: "Shelf", kind: .generic, cameras: [PrinterCamera(url: "http://127.0.0.1:8080/?action=stream")])
    private let bench = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: "http://127.0.0.1:8081/?action=stream")])

    func testOwnWritesAreNoEditAndAHandEditIsToldOnce() throws {
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [shelf]))
        let store = ConfigStore(directory: directory, secrets: nil)
        XCTAssertEqual(store.load().config.printers, [shelf])
        XCTAssertNil(store.outsideEdit(), "the file is as read")
        try store.save(AppConfig(printers: [shelf], farm: .init(shown: true, attentionFirst: false)))
        XCTAssertNil(store.outsideEdit(), "its own write is no edit")

        var renamed = shelf
        renamed.name = "Shelf by the door"
        let edited = try Self.writeByHand(AppConfig(printers: [renamed, bench]), in: directory)
        guard case .edited(let loaded, let contents)? = store.outsideEdit() else { return XCTFail("the edit is told") }
        XCTAssertEqual(loaded.config.printers, [renamed, bench])
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(contents, edited)

        store.adopt(contents, printers: loaded.config.printers)
        XCTAssertNil(store.outsideEdit(), "told once")
        XCTAssertNil(try store.save(loaded.config).keptAside, "an adopted edit is written over without a copy")
        XCTAssertEqual(try conflictCopies(in: directory), [])
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers, [renamed, bench])
    }

    func testASaveOverAnEditNotFollowedKeepsTheEditAside() throws {
        let directory = try makeTemporaryDirectory()
        let store = ConfigStore(directory: directory, secrets: nil)
        try store.save(AppConfig(printers: [shelf]))
        let edited = try Self.writeByHand(AppConfig(printers: [shelf, bench]), in: directory)

        let saved = try store.save(AppConfig(printers: [shelf], farm: .init(shown: true, attentionFirst: false)))
        let kept = try conflictCopies(in: directory)
        XCTAssertEqual(kept.count, 1)
        let copy = try XCTUnwrap(kept.first)
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent(copy)), edited, "the edit is kept whole")
        XCTAssertEqual(saved.keptAside, "The printer list \(directory.path)/printers.json had been changed outside Layerwatch since it was read. "
                       + "That version was kept as \(copy) in \(directory.path), and Layerwatch saved its own.")
        let now = ConfigStore(directory: directory, secrets: nil).load().config
        XCTAssertEqual(now.printers, [shelf])
        XCTAssertTrue(now.farm.shown)
        XCTAssertNil(try store.save(now).keptAside, "its own file is no conflict")
        XCTAssertEqual(try conflictCopies(in: directory).count, 1)
    }

    func testGarbageIsToldNotAdoptedAndKeptAsideByTheNextSave() throws {
        let directory = try makeTemporaryDirectory()
        let store = ConfigStore(directory: directory, secrets: nil)
        try store.save(AppConfig(printers: [shelf]))
        let file = directory.appendingPathComponent("printers.json")
        try Data(#"{"formatVersion": 3, "printers": [{"id": "#.utf8).write(to: file)

        guard case .unreadable(let problem)? = store.outsideEdit() else { return XCTFail("the garbage is told") }
        XCTAssertEqual(problem, "Layerwatch could not read its printer list \(file.path) after it was changed (it is not valid JSON), "
                       + "so it goes on with the printers it had. If a change is saved in Layerwatch before the file is fixed, the file is kept aside first.")
        XCTAssertEqual(try brokenOrConflict(in: directory), [], "nothing is moved while the user may be editing")

        let saved = try store.save(AppConfig(printers: [shelf]))
        XCTAssertNotNil(saved.keptAside)
        let kept = try conflictCopies(in: directory)
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent(try XCTUnwrap(kept.first))), Data(#"{"formatVersion": 3, "printers": [{"id": "#.utf8))
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers, [shelf])
    }

    func testARemovedFileIsNoEditAndIsWrittenAgain() throws {
        let directory = try makeTemporaryDirectory()
        let store = ConfigStore(directory: directory, secrets: nil)
        try store.save(AppConfig(printers: [shelf]))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("printers.json"))
        XCTAssertNil(store.outsideEdit(), "the printers held are kept")
        XCTAssertNil(try store.save(AppConfig(printers: [shelf])).keptAside)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers, [shelf])
    }

    /// Writes `config` over printers.json in place, as an editor that truncates and writes does.
    @discardableResult
    static func writeByHand(_ config: AppConfig, in directory: URL) throws -> Data {
        let data = try JSONEncoder().encode(config)
        try data.write(to: directory.appendingPathComponent("printers.json"))
        return data
    }

    private func conflictCopies(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.range(of: #"^printers\.json\.conflict-\d{8}-\d{6}(-\d+)?$"#, options: .regularExpression) != nil
        }.sorted()
    }

    private func brokenOrConflict(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("printers.json.") }
    }
}
