import Foundation
@testable import LayerwatchApp
import TestSupport
import XCTest

/// The autostart entry outside a sandbox: which program it names (`AutostartProgram`), and that
/// GLib's launcher, reading it as the Desktop Entry Specification says, starts that very program
/// whatever its path holds.
final class AutostartTests: XCTestCase {
    func testTheEntryStartsTheProgramWhateverItsPathHolds() throws {
        for name in [LaunchRecorder.oddName, #"Layer watch "done" $HOME it's a\b"#, "plain"] {
            let folder = try makeTemporaryDirectory()
            let program = try LaunchRecorder(in: folder, name: name)
            let entry = folder.appendingPathComponent("layerwatch.desktop")
            try MainActor.assumeIsolated {
                let text = Autostart.desktopEntry(starting: program.path)
                try text.write(to: entry, atomically: true, encoding: .utf8)
                XCTAssertEqual(try program.launch(entry), [program.path, "--background"], text)
            }
        }
    }

    func testTheExecValueQuotesAsTheSpecificationSays() {
        XCTAssertEqual(DesktopEntryText.exec(["/usr/bin/layerwatch", "--background"]), "/usr/bin/layerwatch --background")
        XCTAssertEqual(DesktopEntryText.exec(["/opt/a b/100%/x", "--background"]), #""/opt/a b/100%%/x" --background"#)
        // A backslash is escaped in the quotes and again as a string value: four; a `$` in quotes, `\\$`.
        XCTAssertEqual(DesktopEntryText.exec(["/a\\b$c\"d`e"]), #""/a\\\\b\\$c\\"d\\`e""#)
        XCTAssertEqual(DesktopEntryText.string(" lead\nline\ttab\\"), #"\slead\nline\ttab\\"#)
    }

    func testTheRunningBinaryIsNamedByItsPath() throws {
        let running = try XCTUnwrap(AutostartProgram.runningExecutable())
        XCTAssertTrue(running.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: running), running)

        let installed = try Self.program(in: try makeTemporaryDirectory().appendingPathComponent("opt/layer watch/bin"))
        XCTAssertEqual(AutostartProgram.choose(running: installed, searchPath: ""), installed, "no layerwatch on PATH: this one")
        let other = try Self.program(in: try makeTemporaryDirectory())
        XCTAssertEqual(AutostartProgram.choose(running: installed, searchPath: URL(fileURLWithPath: other).deletingLastPathComponent().path),
                       installed, "another layerwatch on PATH: still this one")
        // The same file by a symlink on PATH (as packages install it): the PATH name, which outlives an upgrade.
        let bin = try makeTemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("layerwatch").path, withDestinationPath: installed)
        XCTAssertEqual(AutostartProgram.choose(running: installed, searchPath: "relative:" + bin.path),
                       bin.appendingPathComponent("layerwatch").path)
    }

    func testABuildFolderBinaryGivesWayToAnInstalledOne() throws {
        let tree = try makeTemporaryDirectory()
        try Data().write(to: tree.appendingPathComponent("Package.swift"))
        let built = try Self.program(in: tree.appendingPathComponent(".build/debug"))
        let installed = try Self.program(in: try makeTemporaryDirectory())
        let bin = URL(fileURLWithPath: installed).deletingLastPathComponent().path
        XCTAssertEqual(AutostartProgram.choose(running: built, searchPath: bin), installed)
        XCTAssertEqual(AutostartProgram.choose(running: built, searchPath: ""), built, "nothing installed: the build's, which exists")

        let mesonBuild = try makeTemporaryDirectory()
        try Data().write(to: mesonBuild.appendingPathComponent("build.ninja"))
        XCTAssertEqual(AutostartProgram.choose(running: try Self.program(in: mesonBuild), searchPath: bin), installed)
    }

    func testARemovedBinaryGivesWayToWhatIsThereNow() throws {
        let folder = try makeTemporaryDirectory()
        let gone = folder.appendingPathComponent("layerwatch").path
        let installed = try Self.program(in: try makeTemporaryDirectory())
        let bin = URL(fileURLWithPath: installed).deletingLastPathComponent().path
        XCTAssertEqual(AutostartProgram.choose(running: gone + " (deleted)", searchPath: bin), installed)
        XCTAssertNil(AutostartProgram.choose(running: gone + " (deleted)", searchPath: "/nonexistent:relative"), "none can start it")
        XCTAssertNil(AutostartProgram.choose(running: nil, searchPath: ""))
        // Replaced (an upgrade wrote a new file at its path): the new file.
        XCTAssertEqual(try Self.program(in: folder), gone)
        XCTAssertEqual(AutostartProgram.choose(running: gone + " (deleted)", searchPath: bin), gone)
    }

    /// An executable `layerwatch` in `folder` (made if missing); its path.
    private static func program(in folder: URL) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("layerwatch").path
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o755), 0)
        return path
    }
}
