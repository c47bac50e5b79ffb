import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import TestSupport
import XCTest

/// The app started on a print journal that is no database: the file is set aside, never deleted, a
/// new journal starts, and the window's banner says so in words.
final class JournalBannerTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAGarbageJournalIsSetAsideAndTheBannerSaysSo() throws {
        let directory = try makeTemporaryDirectory()
        let state = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try garbage.write(to: state.appendingPathComponent("journal.sqlite3"))
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.bannerText != nil }, "a banner")
            let banner = try XCTUnwrap(window.bannerText)
            let broken = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: state.path)
                .first { $0.hasPrefix("journal.sqlite3.broken-") }, "set aside")
            XCTAssertEqual(banner, "The print journal could not be read. It was set aside as “\(broken)” and a new one started.")
            XCTAssertEqual(try Data(contentsOf: state.appendingPathComponent(broken)), garbage, "kept as it was")
            XCTAssertTrue(FileManager.default.fileExists(atPath: state.appendingPathComponent("journal.sqlite3").path), "a new journal")
            _ = iterateMainContext(timeout: 1) { false }  // the banner slides in
            Screen.save("journal-banner")
        }
    }
}
