import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// `printers.json` edited by hand while the whole app runs, window or not: the tabs, the farm's
/// tiles and the status connections follow the file; a save racing an edit keeps the edit aside and
/// says so in the banner; a file edited into garbage keeps the running printers, with a banner.
final class OutsideEditTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testPrintersAddedRenamedAndRemovedByHandFollowInTheTabsTheFarmAndTheStatus() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        defer { moonraker.stop() }
        let shelf = try clipPrinter("Shelf")
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                            cameras: [PrinterCamera(url: try TestClips.smpteBars(width: 320, height: 240, seconds: 1).path)], notifies: false)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [shelf]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { app.quit() }
            XCTAssertEqual(window.tabs.all.map(\.name), ["Shelf"])

            var renamed = shelf
            renamed.name = "Shelf by the door"
            try Self.writeByHand(AppConfig(printers: [voron, renamed]), in: directory)
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.tabs.all.map(\.name) == ["Voron", "Shelf by the door"] },
                          "the tabs follow the file: \(window.tabs.all.map(\.name))")
            XCTAssertNotNil(moonraker.waitFor("request", timeout: 10), "the added printer's status is polled")
            XCTAssertNil(window.bannerText, "nothing was wrong")
            window.showFarm(true)
            XCTAssertEqual(window.farm.shownOrder.map(\.camera!.name).sorted(), ["Shelf by the door", "Voron"])
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers.map(\.name), ["Voron", "Shelf by the door"],
                           "toggling the farm view saved the edit, not the list held before")

            try Self.writeByHand(AppConfig(printers: [renamed], farm: .init(shown: true, attentionFirst: false)), in: directory)
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.farm.shownOrder.map(\.camera!.name) == ["Shelf by the door"] },
                          "the removed printer's tile goes")
            XCTAssertEqual(window.tabs.all.map(\.name), ["Shelf by the door"])
            XCTAssertNil(app.statusHub.endpoint(of: voron.id), "its status connection ends")
        }
    }

    func testAnEditMadeWithTheWindowClosedShowsWhenItComesBackAndSurvivesTheFarmToggle() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        defer { moonraker.stop() }
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                            cameras: [PrinterCamera(url: try TestClips.smpteBars(width: 320, height: 240, seconds: 1).path)], notifies: false)
        let directory = try makeTemporaryDirectory()
        // No notice: with no notification server, the first notification of the process would
        // choose GLib's freedesktop backend for every later test (GLib keeps its first choice).
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [voron], backgroundNoticeShown: true))
        let shelf = try clipPrinter("Shelf")
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { app.quit() }
            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil && app.background.isHeld }, "in the background")

            var renamed = voron
            renamed.name = "Voron 2.4"
            try Self.writeByHand(AppConfig(printers: [renamed, shelf], backgroundNoticeShown: true), in: directory)
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.library.config.printers.map(\.name) == ["Voron 2.4", "Shelf"] },
                          "followed with no window: \(app.library.config.printers.map(\.name))")

            app.activate()
            let back = try XCTUnwrap(app.window)
            XCTAssertTrue(iterateMainContext(timeout: 10) { back.tabs.all.map(\.name) == ["Voron 2.4", "Shelf"] },
                          "the window comes back with the edit: \(back.tabs.all.map(\.name))")
            back.showFarm(true)
            back.showFarm(false)
            app.flushSaves()
            let saved = ConfigStore(directory: directory, secrets: nil).load().config
            XCTAssertEqual(saved.printers.map(\.name), ["Voron 2.4", "Shelf"], "the rename and the added printer are kept")
        }
    }

    func testASaveRacingAnEditKeepsTheEditAsideAndSaysSo() throws {
        let shelf = try clipPrinter("Shelf"), bench = try clipPrinter("Bench")
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [shelf]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { app.quit() }
            // The edit lands, and a change is saved before the main loop hears of it.
            let edit = try Self.writeByHand(AppConfig(printers: [shelf, bench]), in: directory)
            window.showFarm(true)
            app.flushSaves()
            let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("printers.json.conflict-") }
            XCTAssertEqual(kept.count, 1, "the edit is kept aside")
            let copy = try XCTUnwrap(kept.first)
            XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent(copy)), edit)
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.bannerText != nil })
            XCTAssertEqual(window.bannerText, "The printer list \(directory.path)/printers.json had been changed outside Layerwatch since it was read. "
                           + "That version was kept as \(copy) in \(directory.path), and Layerwatch saved its own.")
            // Its own write is not taken for an edit.
            XCTAssertFalse(iterateMainContext(timeout: 2) { window.tabs.all.count != 1 })
            XCTAssertTrue(ConfigStore(directory: directory, secrets: nil).load().config.farm.shown)
        }
    }

    func testGarbageWrittenByHandKeepsTheRunningPrintersWithABanner() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        defer { moonraker.stop() }
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                            cameras: [PrinterCamera(url: try TestClips.smpteBars(width: 320, height: 240, seconds: 1).path)], notifies: false)
        let shelf = try clipPrinter("Shelf")
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [voron, shelf]))
        let file = directory.appendingPathComponent("printers.json")
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { app.quit() }
            XCTAssertNotNil(moonraker.waitFor("request", timeout: 10))

            try Data("{\"formatVersion\": 3, \"printers\": [{\"id\": ".utf8).write(to: file)
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.bannerText != nil })
            XCTAssertEqual(window.bannerText, "Layerwatch could not read its printer list \(file.path) after it was changed (it is not valid JSON), "
                           + "so it goes on with the printers it had. If a change is saved in Layerwatch before the file is fixed, the file is kept aside first.")
            XCTAssertEqual(window.tabs.all.map(\.name), ["Voron", "Shelf"])
            XCTAssertEqual(app.library.config.printers, [voron, shelf])
            let polled = moonraker.events(named: "request").count
            XCTAssertTrue(iterateMainContext(timeout: 10) { moonraker.events(named: "request").count >= polled + 2 }, "the status goes on")

            // The next save writes the printers held, the garbage kept aside.
            window.showFarm(true)
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers, [voron, shelf])
            let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("printers.json.conflict-") }
            XCTAssertEqual(kept.count, 1)
        }
    }

    private func clipPrinter(_ name: String) throws -> Printer {
        Printer(name: name, kind: .generic, cameras: [PrinterCamera(url: try TestClips.smpteBars(width: 320, height: 240, seconds: 1).path)])
    }

    /// Writes `config` over printers.json in place, as an editor that truncates and writes does.
    @discardableResult
    private static func writeByHand(_ config: AppConfig, in directory: URL) throws -> Data {
        let data = try JSONEncoder().encode(config)
        try data.write(to: directory.appendingPathComponent("printers.json"))
        return data
    }
}
