import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A timelapse of a print on the fake Moonraker printer: one picture per layer change, from the
/// printer's camera at full resolution, waiting on disk; the app started again mid-print adds to
/// the same timelapse; when the print completes the pictures become an H.264 video in the videos
/// folder, one picture a layer, and the finish notification is sent again offering to open it. A
/// video that cannot be written leaves no file and a toast saying so; its pictures wait and become
/// a video when the next print ends.
final class TimelapseTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testOnePicturePerLayerAcrossARestartBecomeAVideoTheFinishNotificationOffers() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a private session bus: run under dbus-run-session (make test)")
        }
        let notifications = try TestServer(script: "notification_server.py")
        addTeardownBlock { notifications.stop() }
        let camera = try TestServer(script: "mjpeg_server.py", arguments: ["--width", "640", "--height", "360", "--fps", "5"])
        let moonraker = try TestServer(script: "moonraker_server.py")
        // Two cameras: the pictures come from the one its tab shows, and the video names it.
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                              cameras: [PrinterCamera(name: "Nozzle", url: "http://127.0.0.1:\(camera.port)/?action=stream"),
                                        PrinterCamera(name: "Bed", url: "http://127.0.0.1:\(camera.port)/webcam/?action=stream")],
                              timelapse: .perLayer)
        let config = try makeTemporaryDirectory(), state = try makeTemporaryDirectory(), videos = try makeTemporaryDirectory()
        try ConfigStore(directory: config, secrets: nil).save(AppConfig(printers: [printer]))
        func set(_ stats: [String: Any]) {
            moonraker.send(["cmd": "set", "status": ["print_stats": stats]])
            XCTAssertNotNil(moonraker.waitFor("done", where: { _ in true }))
        }
        try MainActor.assumeIsolated {
            @MainActor func start() throws -> (LayerwatchApplication, MainWindow) {
                let app = LayerwatchApplication(store: { ConfigStore(directory: config, secrets: nil) },
                                                id: "io.github.layerwatch.Test\(UInt32.random(in: 0...UInt32.max))", stateDirectory: state)
                app.registerWithoutRunning()
                app.activate()
                app.timelapses!.videoFolder = videos
                let window = try XCTUnwrap(app.window)
                XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.selected?.surface!.shownFrame != nil })
                return (app, window)
            }
            @MainActor func layer(_ number: Int, of app: LayerwatchApplication, pictures: Int) {
                set(["state": "printing", "filename": "benchy.gcode", "info": ["current_layer": number, "total_layer": 5]])
                XCTAssertTrue(iterateMainContext(timeout: 10) { app.timelapses!.pictureCount(of: printer.id) == pictures },
                              "layer \(number): \(app.timelapses!.pictureCount(of: printer.id)) pictures")
            }

            let (first, firstWindow) = try start()
            for number in 1...3 { layer(number, of: first, pictures: number) }
            // The same layer reported again takes nothing more.
            XCTAssertFalse(iterateMainContext(timeout: 3) { first.timelapses!.pictureCount(of: printer.id) > 3 })

            // Quit mid-print, start again: the pictures on disk are the same timelapse's.
            gtk_window_destroy(gcast(firstWindow.window))
            first.statusHub.stopAll()
            first.timelapses!.flush()
            let (again, window) = try start()
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertFalse(iterateMainContext(timeout: 3) { again.timelapses!.pictureCount(of: printer.id) != 3 }, "layer 3 is not taken twice")
            for number in 4...5 { layer(number, of: again, pictures: number) }

            set(["state": "complete", "info": ["current_layer": 5, "total_layer": 5]])
            XCTAssertTrue(iterateMainContext(timeout: 30) { (try? FileManager.default.contentsOfDirectory(atPath: videos.path))?.count == 1 })
            again.timelapses!.flush()
            let name = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: videos.path).first)
            XCTAssertTrue(name.hasPrefix("Voron — Nozzle timelapse ") && name.hasSuffix(".mp4"), name)
            let video = try RecordedFile(videos.appendingPathComponent(name))
            XCTAssertEqual(video.codec, "h264")
            XCTAssertEqual([video.width, video.height], [640, 360], "the camera's full resolution")
            XCTAssertEqual(video.frames, 5, "one picture a layer")
            XCTAssertEqual(video.decodeErrors, "")
            XCTAssertEqual(again.timelapses!.pictureCount(of: printer.id), 0, "the pictures are gone once the video is made")

            // The finish notification offering the video: told once the finished state has held
            // (NotificationGate.settleTime), by when the video is usually made; else the finish
            // notification, then the same one again with the button.
            // Only this printer's (a printer of an earlier test's app may notify meanwhile), through
            // whichever interface GLib chose at the process's first notification.
            func sent() -> [TestServer.Event] {
                notifications.events(named: "notification").filter { $0.string("title")?.hasPrefix("Voron:") ?? false }
            }
            XCTAssertTrue(iterateMainContext(timeout: 10) { sent().contains { ($0.fields["buttons"] as? [Any])?.isEmpty == false } })
            XCTAssertTrue((1...2).contains(sent().count), "the finish notification, offering the video: \(sent().map(\.fields))")
            let offered = try XCTUnwrap(sent().last)
            XCTAssertEqual(offered.string("title"), "Voron: print finished")
            XCTAssertEqual(offered.string("body"), "benchy.gcode\nTimelapse: \(name)")
            let buttons = try XCTUnwrap(offered.fields["buttons"] as? [[String: Any]])
            XCTAssertEqual(buttons.first?["label"] as? String, "Open Timelapse")
            if offered.string("interface") == "gtk" {
                XCTAssertEqual(offered.string("id"), "printer-\(printer.id.uuidString)", "it replaces the finish notification")
                XCTAssertEqual(buttons.first?["action"] as? String, "app.open-file")
                XCTAssertEqual(buttons.first?["target"] as? String, videos.appendingPathComponent(name).path)
            }

            // A print cancelled in Mainsail: its timelapse is offered as cancelled, never as failed.
            set(["state": "printing", "filename": "gear.gcode", "info": ["current_layer": 1, "total_layer": 9]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { again.timelapses!.pictureCount(of: printer.id) == 1 })
            let before = sent().count
            set(["state": "cancelled"])
            XCTAssertTrue(iterateMainContext(timeout: 30) { sent().dropFirst(before).contains { ($0.fields["buttons"] as? [Any])?.isEmpty == false } },
                          "\(sent().map(\.fields))")
            let cancelled = sent().dropFirst(before)
            XCTAssertEqual(Set(cancelled.compactMap { $0.string("title") }), ["Voron: print cancelled"], "\(cancelled.map(\.fields))")
            XCTAssertTrue(cancelled.allSatisfy { $0.string("priority") == "normal" })
        }
    }

    func testAVideoThatCannotBeWrittenIsToldAndItsPicturesBecomeAVideoWhenTheNextPrintEnds() throws {
        let camera = try TestServer(script: "mjpeg_server.py", arguments: ["--width", "640", "--height", "360", "--fps", "5"])
        let moonraker = try TestServer(script: "moonraker_server.py")
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port, cameras: [PrinterCamera(url: "http://127.0.0.1:\(camera.port)/?action=stream")], notifies: false, timelapse: .perLayer)
        let config = try makeTemporaryDirectory(), state = try makeTemporaryDirectory(), videos = try makeTemporaryDirectory()
        try ConfigStore(directory: config, secrets: nil).save(AppConfig(printers: [printer]))
        // A file where the videos' folder would be: the folder cannot be made.
        let blocked = videos.appendingPathComponent("Layerwatch")
        try Data().write(to: blocked)
        func set(_ stats: [String: Any]) {
            moonraker.send(["cmd": "set", "status": ["print_stats": stats]])
            XCTAssertNotNil(moonraker.waitFor("done", where: { _ in true }))
        }
        let unsaved = state.appendingPathComponent("timelapse/unsaved/\(printer.id.uuidString)")
        func setAside() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: unsaved.path)) ?? []).flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: unsaved.appendingPathComponent(folder).path)) ?? []).filter { $0.hasSuffix(".jpg") }
            }
        }
        try MainActor.assumeIsolated {
            let app = LayerwatchApplication(store: { ConfigStore(directory: config, secrets: nil) },
                                            id: "io.github.layerwatch.Test\(UInt32.random(in: 0...UInt32.max))", stateDirectory: state)
            app.registerWithoutRunning()
            app.activate()
            app.timelapses!.videoFolder = blocked.appendingPathComponent("Videos")
            let window = try XCTUnwrap(app.window)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.selected?.surface!.shownFrame != nil })
            for number in 1...2 {
                set(["state": "printing", "filename": "benchy.gcode", "info": ["current_layer": number, "total_layer": 2]])
                XCTAssertTrue(iterateMainContext(timeout: 10) { app.timelapses!.pictureCount(of: printer.id) == number })
            }
            set(["state": "complete", "info": ["current_layer": 2, "total_layer": 2]])
            XCTAssertTrue(iterateMainContext(timeout: 30) { !toastTitles(in: window.window).isEmpty }, "a toast says so")
            let told = try XCTUnwrap(toastTitles(in: window.window).first)
            XCTAssertTrue(told.hasPrefix("The timelapse of “Voron” could not be saved: ") && told.contains("Not a directory")
                          && told.hasSuffix("Its pictures are kept and it is made when the printer's next print ends or Layerwatch starts again."), told)
            app.timelapses!.flush()
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: videos.path), ["Layerwatch"], "no video file")
            XCTAssertEqual(setAside().sorted(), ["000001.jpg", "000002.jpg"], "the pictures wait")
            XCTAssertEqual(app.timelapses!.pictureCount(of: printer.id), 0, "the next print starts afresh")

            // The folder can be made again; the next print ends: both timelapses become videos.
            app.timelapses!.videoFolder = videos.appendingPathComponent("Videos")
            set(["state": "printing", "filename": "calibration.gcode", "info": ["current_layer": 1, "total_layer": 1]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.timelapses!.pictureCount(of: printer.id) == 1 })
            set(["state": "complete", "info": ["current_layer": 1, "total_layer": 1]])
            XCTAssertTrue(iterateMainContext(timeout: 30) {
                (try? FileManager.default.contentsOfDirectory(atPath: videos.appendingPathComponent("Videos").path))?.count == 2
            })
            app.timelapses!.flush()
            let made = try FileManager.default.contentsOfDirectory(at: videos.appendingPathComponent("Videos"), includingPropertiesForKeys: nil)
            XCTAssertEqual(try made.map { try RecordedFile($0).frames }.sorted(), [1, 2], "the waiting pictures' video and the new print's")
            XCTAssertEqual(setAside(), [], "made, the pictures set aside are gone")
            XCTAssertTrue(iterateMainContext(timeout: 5) { toastTitles(in: window.window).contains { $0.hasPrefix("Saved the timelapse “Voron timelapse ") } })
        }
    }

    func testTheDialogSavesATimelapseForPrintersWithStatusOnly() throws {
        let directory = try makeTemporaryDirectory()
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: Int(closedLoopbackPort()), cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(closedLoopbackPort())/live")], notifies: false)
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [voron]))
        try withPrinterDialog(in: directory, editing: voron) { app, window, dialog in
            XCTAssertNotEqual(gtk_widget_get_visible(dialog.timelapse.field.widget), 0, "a Klipper printer has prints to follow")
            XCTAssertNil(dialog.timelapse.timelapse)
            dialog.timelapse.timelapse = .every(seconds: 30)
            dialog.save()
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers.first?.timelapse, .every(seconds: 30))
            let again = try printerDialog(of: app, editing: try XCTUnwrap(app.library.printer(id: voron.id)))
            XCTAssertEqual(again.timelapse.timelapse, .every(seconds: 30), "the dialog shows the saved setting")
            again.selectKind(.generic)
            XCTAssertEqual(gtk_widget_get_visible(again.timelapse.field.widget), 0, "a plain camera has no print to follow")
            gtk_window_destroy(gcast(again.window))
        }
    }
}
