import CGtk
import Foundation
import GtkKit
import JournalKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The videos made of a print, linked to it in the journal by the whole app: a recording of the
/// printer's camera begun during a print of the Moonraker fake (Tests/Servers/moonraker_server.py)
/// and stopped after it ended, and the print's timelapse, made once it ended.
final class JournalVideoTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testARecordingAndTheTimelapseOfAPrintAreLinkedToIt() throws {
        let camera = try TestServer(script: "mjpeg_server.py", arguments: ["--width", "640", "--height", "360", "--fps", "5"])
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock {
            camera.stop()
            moonraker.stop()
        }
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                              cameras: [PrinterCamera(url: "http://127.0.0.1:\(camera.port)/?action=stream")], notifies: false,
                              timelapse: .perLayer)
        let directory = try makeTemporaryDirectory(), recordings = try makeTemporaryDirectory(), timelapses = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], backgroundNoticeShown: true))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { app.quit() }
            window.recordingFolder = recordings
            try XCTUnwrap(app.timelapses).videoFolder = timelapses
            let store = try XCTUnwrap(app.journal).store
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.surface?.shownFrame != nil })

            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode",
                                                                     "info": ["current_layer": 1, "total_layer": 2]]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { store.prints(JournalQuery()).first?.result == .underway }, "the print begun")
            page.setRecording(true)
            XCTAssertTrue(iterateMainContext(timeout: 10) { (page.session?.recording?.current.seconds ?? 0) >= 2 }, "it records")
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "complete"]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { store.prints(JournalQuery()).first?.result == .finished }, "the print ended")
            page.setRecording(false)

            let key = try XCTUnwrap(store.prints(JournalQuery()).first?.key)
            XCTAssertTrue(iterateMainContext(timeout: 30) { store.videos(ofPrint: key).count == 2 }, "\(store.videos(ofPrint: key))")
            let linked = store.videos(ofPrint: key)
            let recorded = try FileManager.default.contentsOfDirectory(at: recordings, includingPropertiesForKeys: nil)
            let made = try FileManager.default.contentsOfDirectory(at: timelapses, includingPropertiesForKeys: nil)
            XCTAssertEqual(recorded.count, 1)
            XCTAssertEqual(made.count, 1)
            XCTAssertEqual(Set(linked.map(\.kind)), [.recording, .timelapse])
            XCTAssertEqual(linked.first { $0.kind == .recording }?.file.standardizedFileURL, recorded.first?.standardizedFileURL)
            XCTAssertEqual(linked.first { $0.kind == .timelapse }?.file.standardizedFileURL, made.first?.standardizedFileURL)
            XCTAssertEqual(store.prints(JournalQuery()).count, 1)
        }
    }
}
