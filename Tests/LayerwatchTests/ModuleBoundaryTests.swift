import Foundation
import TestSupport
import XCTest

/// The boundaries the sources keep: the command line's headless commands need nothing of the app
/// module, the camera widget knows nothing of printers or their status, the print journal nothing
/// of GTK, and the app and the camera
/// widget leave GLib's signal and reference chores to GtkKit's helpers.
final class ModuleBoundaryTests: XCTestCase {
    static let sources = TestPaths.repository.appendingPathComponent("Sources")

    func testOnlyTheCommandThatOpensTheWindowImportsTheApp() throws {
        let importing = try Self.swiftFiles(in: "Layerwatch").filter { file in
            try Self.codeLines(of: file).contains("import LayerwatchApp")
        }
        XCTAssertEqual(importing.map(\.lastPathComponent), ["ViewCommand.swift"])
    }

    func testTheCameraWidgetImportsNothingOfPrinters() throws {
        let forbidden = ["StatusKit", "PrinterKit", "LayerwatchApp"]
        var found: [String] = []
        for file in try Self.swiftFiles(in: "CameraKit") {
            for line in try Self.codeLines(of: file) where forbidden.contains(where: { Self.imports(line, $0) }) {
                found.append("\(file.lastPathComponent): \(line)")
            }
        }
        XCTAssertEqual(found, [], "CameraKit shows one camera: its owner adds the printer's status (StatsOverlay.extraLines)")
    }

    /// The print journal is written by the background stay and read by `layerwatch history`, neither
    /// of which may need a display.
    func testTheJournalIsFreeOfGTK() throws {
        let forbidden = ["CGtk", "GtkKit", "CameraKit", "CLayerwatch", "LayerwatchApp"]
        var found: [String] = []
        for file in try Self.swiftFiles(in: "JournalKit") {
            for line in try Self.codeLines(of: file) where forbidden.contains(where: { Self.imports(line, $0) }) {
                found.append("\(file.lastPathComponent): \(line)")
            }
        }
        XCTAssertEqual(found, [], "JournalKit stands on StatusKit, PrinterKit and SQLite only")
    }

    func testTheAppConnectsSignalsAndDropsReferencesThroughGtkKit() throws {
        let chores = ["g_signal_connect", "@convention(c)", "g_object_unref", "g_free(", "lw_accessible_"]
        var found: [String] = []
        for file in try Self.swiftFiles(in: "LayerwatchApp") + Self.swiftFiles(in: "CameraKit") {
            for line in try Self.codeLines(of: file) where chores.contains(where: line.contains) {
                found.append("\(file.lastPathComponent): \(line)")
            }
        }
        XCTAssertEqual(found, [], "use GtkKit's connectSignal family, GObjectRef, keepAlive, String(takingGLibString:), setAccessibleLabel")
    }

    /// A printer family is one unit of code (issue 36): code outside a family's own files (whose
    /// path names the family, or "famil") never singles one out with `case .bambu`, `case .klipper`…;
    /// it asks the family through its registry (`StatusFamilies`, `PrinterFamilies`).
    func testOnlyAFamilysOwnFilesSwitchOnIt() throws {
        let families = ["bambu", "klipper", "moonraker", "octoprint", "creality", "elegoo", "prusa", "flashforge"]
        let pattern = try NSRegularExpression(pattern: "case \\.(" + families.joined(separator: "|") + ")\\b")
        var found: [String] = []
        for module in ["StatusKit", "PrinterKit", "LayerwatchApp", "Layerwatch"] {
            for file in try Self.swiftFiles(in: module) {
                let path = file.path.dropFirst(Self.sources.path.count).lowercased()
                guard !path.contains("famil"), !families.contains(where: path.contains) else { continue }
                for line in try Self.codeLines(of: file)
                where pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    found.append("\(file.lastPathComponent): \(line)")
                }
            }
        }
        XCTAssertEqual(found, [], "declare what is a family's own in its file, and ask it through the registry")
    }

    /// Whether `line` imports `module` (plainly, `@testable`, or one of its declarations).
    private static func imports(_ line: String, _ module: String) -> Bool {
        let words = line.split(separator: " ")
        guard words.contains("import"), let imported = words.last else { return false }
        return imported == module || imported.hasPrefix(module + ".")
    }

    /// The Swift files of `module`, in its folders too, sorted.
    private static func swiftFiles(in module: String) throws -> [URL] {
        let folder = sources.appendingPathComponent(module)
        let files = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects ?? [])
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertFalse(files.isEmpty, "no Swift files found in \(folder.path)")
        return files.sorted { $0.path < $1.path }
    }

    /// The lines of `file` that are not comments, trimmed.
    private static func codeLines(of file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("//") }
    }
}
