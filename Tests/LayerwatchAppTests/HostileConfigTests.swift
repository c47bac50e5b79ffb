import CGtk
import Glibc
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The whole app started on hostile `printers.json` files: sizes no window can have, and a FIFO
/// that once blocked start-up in `open()`.
final class HostileConfigTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testSizesOutOfRangeStartTheAppWithSaneWindows() throws {
        let clip = try TestClips.smpteBars(width: 160, height: 120, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let id = UUID()
        try Data("""
        {"formatVersion": 1,
         "printers": [{"id": "\(id.uuidString)", "name": "Shelf", "kind": "generic", "url": "\(clip.path)"}],
         "window": {"width": 4294967296, "height": 4294967296, "maximized": false},
         "miniWindows": [{"printerID": "\(id.uuidString)", "width": 99999999999, "height": -99999999999}]}
        """.utf8).write(to: directory.appendingPathComponent("printers.json"))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertNil(window.bannerText, "nothing was wrong enough to set the file aside")
            var width: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(gcast(window.window), &width, &height)
            // Brought to 8192 by the config, then to the 1600×1200 screen by the window.
            XCTAssertTrue((100...1600).contains(width) && (100...1200).contains(height), "\(width)×\(height)")
            let mini = try XCTUnwrap(app.miniWindows[id], "the mini window opens")
            var miniWidth: Int32 = 0, miniHeight: Int32 = 0
            gtk_window_get_default_size(gcast(mini.window), &miniWidth, &miniHeight)
            XCTAssertTrue((100...1600).contains(miniWidth) && miniHeight == 100, "\(miniWidth)×\(miniHeight)")
        }
    }

    func testAFIFOAtTheConfigStartsTheAppWithABanner() throws {
        let directory = try makeTemporaryDirectory()
        XCTAssertEqual(mkfifo(directory.appendingPathComponent("printers.json").path, 0o600), 0)
        try MainActor.assumeIsolated {
            let started = Date()
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertLessThan(Date().timeIntervalSince(started), 5)
            let banner = try XCTUnwrap(window.bannerText)
            XCTAssertTrue(banner.contains("(it is not a regular file)"), banner)
            XCTAssertTrue(window.isWelcomeShown)
        }
    }
}
