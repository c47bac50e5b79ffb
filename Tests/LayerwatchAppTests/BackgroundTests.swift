import CGtk
import GtkKit
import JournalKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Closing the window while printers are watched keeps Layerwatch running, as a real Klipper
/// printer (the Moonraker peer), an RTSP camera and a notification server on the test bus see it:
/// the status keeps polling, the camera is let go, the print's end is notified with a picture the
/// camera took then, the notification's click brings the window back in the same process (as
/// launching again does: `BackgroundLaunchTests`), and recordings and timelapses go on meanwhile.
final class BackgroundTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheClosedWindowKeepsWatchingNotifiesWithAFreshPictureAndComesBack() throws {
        let notifications = try notificationServer()
        let (camera, moonraker, printer) = try klipperPrinter(notifies: true)
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live && page.status.strip.stateText == "Idle" })
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.status.strip.stateText == "Printing" })

            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil })
            XCTAssertTrue(app.background.isHeld, "the application is held with no window")
            XCTAssertNotNil(app.statusHub.endpoint(of: printer.id), "the status connection runs on")
            let notice = try XCTUnwrap(notifications.waitFor("notification", timeout: 10) { $0.string("title") == "Layerwatch Is Still Running" },
                                       "\(notifications.events(named: "notification").map(\.fields)) \(notifications.events(named: "error").map(\.fields))")
            XCTAssertTrue(notice.string("body")?.hasPrefix("Layerwatch keeps watching 1 printer") == true, "\(notice.fields)")
            XCTAssertEqual(Self.buttons(of: notice), [["Quit", "app.quit"]])
            XCTAssertNotNil(camera.waitFor("client-closed", timeout: 10), "the camera is let go: nothing decodes for nobody")
            let session = try XCTUnwrap(app.sessions.existingSession(for: page.camera!.source))
            XCTAssertEqual(session.consumerCount, 0)
            let polled = moonraker.events(named: "request").count
            XCTAssertTrue(iterateMainContext(timeout: 10) { moonraker.events(named: "request").count >= polled + 3 }, "the status keeps polling")

            // The print ends: the notification's picture is taken then, from a connection made for it.
            let clients = camera.events(named: "client").count
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "complete"]]])
            XCTAssertTrue(iterateMainContext(timeout: 20) { notifications.events(named: "notification").count == 2 })
            let finished = try XCTUnwrap(notifications.events(named: "notification").last)
            XCTAssertEqual(finished.string("title"), "Voron: print finished")
            XCTAssertEqual(finished.string("body"), "gear.gcode")
            let icon = try XCTUnwrap(finished.fields["icon"] as? [String: Any])
            XCTAssertEqual(icon["kind"] as? String, "bytes", "the camera's picture: \(icon)")
            XCTAssertEqual(icon["width"] as? Int, 256, "640×480 scaled to 256 wide: \(icon)")
            XCTAssertEqual(icon["height"] as? Int, 192)
            let journal = try XCTUnwrap(app.journal)
            XCTAssertTrue(iterateMainContext(timeout: 10) { journal.store.prints(JournalQuery()).first?.finalPicture != nil },
                          "the print's final picture in the journal: \(journal.store.prints(JournalQuery()))")
            XCTAssertEqual(camera.events(named: "client").count, clients + 1, "one connection, for the notification's and the journal's picture")
            // A picture asked for a moment after another is that same one: the camera is not connected again.
            var taken: [VideoFrame?] = []
            app.pictures.freshPicture(of: printer.id) { taken.append($0) }
            XCTAssertTrue(iterateMainContext(timeout: 10) { taken.count == 1 })
            let connections = camera.events(named: "client").count
            app.pictures.freshPicture(of: printer.id) { taken.append($0) }
            XCTAssertTrue(iterateMainContext(timeout: 10) { taken.count == 2 })
            XCTAssertNotNil(taken[0])
            XCTAssertTrue(taken[0] === taken[1], "the same picture")
            XCTAssertEqual(camera.events(named: "client").count, connections, "no new connection")
            XCTAssertTrue(iterateMainContext(timeout: 10) { session.consumerCount == 0 && camera.events(named: "client-closed").count == 2 },
                          "and let go once the picture is taken")

            // The notification's click brings the window back, in this process, with its camera.
            notifications.send(["cmd": "click"])
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.window != nil }, "\(notifications.events(named: "error").map(\.fields))")
            let back = try XCTUnwrap(app.window)
            XCTAssertFalse(app.background.isHeld, "the window holds the application again")
            let again = try XCTUnwrap(back.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { again.state == .live && again.status.strip.stateText == "Finished" })

            // Quit ends everything.
            app.quit()
            XCTAssertNil(app.window)
            XCTAssertNil(app.statusHub.endpoint(of: printer.id))
            XCTAssertFalse(app.background.isHeld)
        }
    }

    func testARecordingGoesOnInTheBackgroundAndQuitClosesItWhole() throws {
        let (_, _, printer) = try klipperPrinter(notifies: false)
        // No notice: with no notification server, the first notification of the process would
        // choose GLib's freedesktop backend for every later test (GLib keeps its first choice).
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], backgroundNoticeShown: true))
        let videos = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            window.recordingFolder = videos
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live })
            let viewed = page.session!.consumerCount
            window.tabs.selected?.setRecording(true)
            let recording = try XCTUnwrap(page.session!.recording)
            XCTAssertTrue(iterateMainContext(timeout: 5) { recording.current.seconds >= 1 })

            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil })
            XCTAssertTrue(app.background.isHeld)
            let before = recording.current.seconds
            XCTAssertTrue(iterateMainContext(timeout: 10) { recording.current.seconds >= before + 3 }, "it records with no window")
            XCTAssertFalse(recording.current.isFinished)
            XCTAssertEqual(page.session!.consumerCount, 1, "held for the recording alone")

            app.activate()
            let back = try XCTUnwrap(app.window)
            let again = try XCTUnwrap(back.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 10) { again.state == .live })
            XCTAssertTrue(again.session!.recording === recording, "the tab shows the recording still running")
            XCTAssertEqual(again.session!.consumerCount, viewed, "the tab holds the camera now, not the background")

            app.quit()
            let files = try FileManager.default.contentsOfDirectory(atPath: videos.path)
            XCTAssertEqual(files.count, 1)
            let recorded = try RecordedFile(videos.appendingPathComponent(try XCTUnwrap(files.first)))
            XCTAssertEqual(recorded.decodeErrors, "", "closed whole")
            XCTAssertGreaterThanOrEqual(recorded.seconds, 4)
        }
    }

    func testATimelapseGoesOnInTheBackgroundOnItsOwnConnection() throws {
        let (camera, moonraker, printer) = try klipperPrinter(notifies: false, mjpeg: true, timelapse: .perLayer)
        let directory = try makeTemporaryDirectory(), videos = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], backgroundNoticeShown: true))
        func layer(_ number: Int) {
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "benchy.gcode",
                                                                     "info": ["current_layer": number, "total_layer": 6]]]])
        }
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            let timelapses = try XCTUnwrap(app.timelapses)
            timelapses.videoFolder = videos
            XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.selected?.surface!.shownFrame != nil })
            layer(1)
            XCTAssertTrue(iterateMainContext(timeout: 10) { timelapses.pictureCount(of: printer.id) == 1 })

            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil && app.background.isHeld })
            // Every picture waits out the 3 s between pictures; each comes from the held connection.
            for number in 2...4 {
                _ = iterateMainContext(timeout: 4) { false }
                layer(number)
                XCTAssertTrue(iterateMainContext(timeout: 10) { timelapses.pictureCount(of: printer.id) == number },
                              "layer \(number) with no window: \(timelapses.pictureCount(of: printer.id)) pictures")
            }
            XCTAssertEqual(camera.events(named: "request").count, 1, "one connection all along: the tab's, then the timelapse's own")

            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "complete"]]])
            XCTAssertTrue(iterateMainContext(timeout: 30) { (try? FileManager.default.contentsOfDirectory(atPath: videos.path))?.count == 1 },
                          "the video is made in the background")
            let session = try XCTUnwrap(app.sessions.existingSession(for: try StreamSource.parse("http://127.0.0.1:\(camera.port)/?action=stream")))
            XCTAssertTrue(iterateMainContext(timeout: 10) { session.consumerCount == 0 },
                          "the print over, the camera is let go")
            app.quit()
        }
    }

    func testInsideASandboxTheBackgroundPortalIsAskedWithAReason() throws {
        let name = "io.github.layerwatch.TestPortal\(UInt32.random(in: 0...UInt32.max))"
        let portal = try TestServer(script: "background_portal.py", arguments: ["--name", name])
        addTeardownBlock { portal.stop() }
        XCTAssertNotNil(portal.waitFor("ready"))
        let (_, _, printer) = try klipperPrinter(notifies: false)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], backgroundNoticeShown: true))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            app.preferences.autostart = Autostart(usesPortal: true, folder: try makeTemporaryDirectory(), portalName: name)
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(printer.id)?.status != nil })
            XCTAssertTrue(portal.events(named: "request").isEmpty, "nothing asked while the window is open")

            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.background.isHeld })
            let request = try XCTUnwrap(portal.waitFor("request", timeout: 5))
            let options = try XCTUnwrap(request.fields["options"] as? [String: Any])
            XCTAssertEqual(options["reason"] as? String,
                           "Layerwatch keeps watching your printers with its window closed, to tell you when a print ends.")
            XCTAssertEqual(options["autostart"] as? Bool, false, "start at login as the preference has it: off")
            XCTAssertEqual(options["commandline"] as? [String], ["layerwatch", "--background"])
            app.quit()
        }
    }

    func testWithThePreferenceOffOrNothingWatchedTheWindowEndsIt() throws {
        let (_, _, printer) = try klipperPrinter(notifies: false)
        var config = AppConfig(printers: [printer])
        config.preferences.runInBackground = false
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(config)
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.statusHub.latest(printer.id)?.status != nil })
            gtk_window_close(gcast(window.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.window == nil })
            XCTAssertFalse(app.background.isHeld)
            XCTAssertNil(app.statusHub.endpoint(of: printer.id), "nothing is watched once the window is gone")

            // A camera alone (no status) is nothing to watch either.
            let (plain, plainWindow) = try startApp(in: try makeTemporaryDirectory())
            plain.showDemo()
            XCTAssertEqual(plainWindow.tabs.all.count, 1)
            gtk_window_close(gcast(plainWindow.window))
            XCTAssertTrue(iterateMainContext(timeout: 5) { plain.window == nil })
            XCTAssertFalse(plain.background.isHeld, "the demo's simulated print is not a printer to watch")
        }
    }

    /// A Klipper printer (the Moonraker peer) with an RTSP camera of 640×480, or an MJPEG one of
    /// 640×360 at 5 fps.
    private func klipperPrinter(notifies: Bool, mjpeg: Bool = false, timelapse: Timelapse? = nil) throws
        -> (camera: TestServer, moonraker: TestServer, printer: Printer) {
        let camera = mjpeg ? try TestServer(script: "mjpeg_server.py", arguments: ["--width", "640", "--height", "360", "--fps", "5"])
            : try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "15"])
        let moonraker = try TestServer(script: "moonraker_server.py")
        addTeardownBlock {
            camera.stop()
            moonraker.stop()
        }
        let url = mjpeg ? "http://127.0.0.1:\(camera.port)/?action=stream" : "rtsp://127.0.0.1:\(camera.port)/streaming/live/1"
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                              cameras: [PrinterCamera(url: url)], notifies: notifies, timelapse: timelapse)
        return (camera, moonraker, printer)
    }

    private static func buttons(of notification: TestServer.Event) -> [[String]] {
        (notification.fields["buttons"] as? [[String: Any]] ?? []).map { [$0["label"] as? String ?? "", $0["action"] as? String ?? ""] }
    }
}
