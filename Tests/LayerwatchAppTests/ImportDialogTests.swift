import CGtk
@testable import CameraKit
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The Add/Edit Printer dialog against real Moonraker and OctoPrint test servers: "Find Cameras"
/// lists a host's cameras off the main loop (a WebRTC-only one listed but not choosable), the checked
/// ones become the printer's cameras (listed, reordered, removed), Save adds one tab for the printer
/// and keeps each camera's mounting in printers.json (the API key in the keyring when one runs),
/// errors land under the address, and closing the dialog ends a search.
final class ImportDialogTests: XCTestCase {
    private static let moonrakerKey = "0123456789abcdef0123456789abcdef"

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testMoonrakersCheckedCamerasBecomeThePrintersCamerasInOneTabWithItsKeyInTheKeyring() throws {
        guard isAppChild() else { return try runInAppChild(launcher: AppChild.unlockedKeyring) }
        let camera = try TestServer(script: "mjpeg_server.py")
        let stream = "127.0.0.1:\(camera.port)/?action=stream"
        let moonraker = try moonrakerServer(webcams: [
            ["name": "Nozzle", "service": "mjpegstreamer-adaptive", "stream_url": "http://\(stream)",
             "rotation": 90, "flip_horizontal": true, "flip_vertical": false],
            ["name": "Janus", "service": "webrtc-janus", "stream_url": "http://127.0.0.1:\(camera.port)/janus"],
            ["name": "Chamber", "service": "mjpegstreamer", "stream_url": "http://viewer:Pa55w0rd@\(stream)&token=T0k3n",
             "rotation": 180, "flip_vertical": true],
            // What a hostile host may list: a file, and a cloud metadata address.
            ["name": "Passwords", "service": "mjpegstreamer", "stream_url": "file:///etc/passwd"],
            ["name": "Metadata", "service": "mjpegstreamer", "stream_url": "http://169.254.169.254/latest/meta-data"],
        ], key: Self.moonrakerKey)
        try MainActor.assumeIsolated {
            let store = ConfigStore.standard()
            XCTAssertEqual(store.secretsLocation, .keyring)
            let (app, window) = try startApp(store: store)
            defer { gtk_window_destroy(gcast(window.window)) }
            let dialog = try printerDialog(of: app)
            dialog.selectKind(.klipper)
            XCTAssertEqual(shown(dialog), ["name", "host", "port", "API key", "cameras"])
            XCTAssertEqual(dialog.apiPort.placeholderText, "7125")
            dialog.fill(name: "Voron", host: "127.0.0.1", port: moonraker.port, code: Self.moonrakerKey)

            dialog.findCameras()
            XCTAssertTrue(dialog.cameraList.isSearching)
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertNil(dialog.host.errorText)
            XCTAssertNotNil(moonraker.waitFor("request") { $0.string("path") == "/server/webcams/list" && $0.fields["authorized"] as? Bool == true })
            let list = dialog.cameraList
            XCTAssertEqual(list.cameras.map(\.name), ["Nozzle", "Janus", "Chamber", "Passwords", "Metadata"])
            XCTAssertEqual((0..<5).map { checked(list, $0) }, [true, false, true, false, false], "every playable camera is checked")
            XCTAssertEqual((3..<5).map { gtk_widget_get_sensitive(list.row(at: $0).row) }, [0, 0], "neither can be chosen")
            XCTAssertEqual(subtitle(list, 3), "file:///etc/passwd — not a network camera\nmjpegstreamer")
            XCTAssertEqual(subtitle(list, 4), "http://169.254.169.254/latest/meta-data — a link-local address, where no camera streams\nmjpegstreamer · on 169.254.169.254, not the printer's host")
            XCTAssertEqual(gtk_widget_get_sensitive(list.row(at: 1).row), 0, "a WebRTC-only camera cannot be chosen")
            XCTAssertEqual(subtitle(list, 0), "http://\(stream)\nmjpegstreamer-adaptive · rotated 90°, flipped horizontally")
            XCTAssertEqual(subtitle(list, 1), "Only a web browser plays this camera\nwebrtc-janus")
            XCTAssertEqual(subtitle(list, 2), "http://viewer:***@\(stream)&token=***\nmjpegstreamer · rotated 180°, flipped vertically")

            XCTAssertEqual(dialog.cameraRows.rowTexts, ["Nozzle — http://\(stream)", "Chamber — http://viewer:***@\(stream)&token=***"],
                           "the checked cameras are the printer's")
            XCTAssertEqual(dialog.url.text, "http://\(stream)", "the first is selected: its URL and mounting below")
            XCTAssertEqual(dialog.mounting.rotation, 90)
            dialog.cameraRows.onRequest(.select(1))
            XCTAssertEqual(dialog.mounting.rotation, 180)
            dialog.cameraRows.onRequest(.moveUp(1))
            XCTAssertEqual(dialog.cameraRows.rowTexts.map { $0.components(separatedBy: " — ")[0] }, ["Chamber", "Nozzle"])
            dialog.cameraRows.onRequest(.moveDown(0))
            dialog.cameraRows.onRequest(.add)
            XCTAssertEqual(dialog.cameraRows.rowTexts.last, "Camera 3 — No URL yet")
            dialog.cameraRows.onRequest(.remove(2))
            XCTAssertEqual(dialog.draft.cameras.map(\.name), ["Nozzle", "Chamber"])

            dialog.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["Voron"], "one tab for the printer")
            let page = try XCTUnwrap(window.tabs.all.first)
            XCTAssertEqual(page.cameras.map(\.title), ["Nozzle", "Chamber"])
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.sessions.allSatisfy { $0.state == .live } }, "each camera connected once")
            app.flushSaves()

            let text = String(decoding: try Data(contentsOf: store.fileURL), as: UTF8.self)
            for secret in [Self.moonrakerKey, "Pa55w0rd", "T0k3n"] {
                XCTAssertFalse(text.contains(secret), "\(secret) in the file: \(text)")
            }
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            XCTAssertEqual(object["formatVersion"] as? Int, 3)
            let printers = try XCTUnwrap(object["printers"] as? [[String: Any]])
            XCTAssertEqual(printers.map { $0["kind"] as? String }, ["klipper"])
            XCTAssertEqual(printers.map { $0["apiPort"] as? Int }, [moonraker.port])
            let cameras = try XCTUnwrap(printers[0]["cameras"] as? [[String: Any]])
            XCTAssertEqual(cameras.map { $0["rotation"] as? Int }, [90, 180])
            XCTAssertEqual(cameras.map { $0["flipHorizontal"] as? Bool }, [true, nil])
            XCTAssertEqual(cameras.map { $0["flipVertical"] as? Bool }, [nil, true])

            let reloaded = ConfigStore.standard().load()
            XCTAssertNil(reloaded.problem)
            XCTAssertEqual(reloaded.config.printers.map(\.accessCode), [Self.moonrakerKey], "the keyring gives the key back")
            XCTAssertEqual(reloaded.config.printers.first?.cameras.last?.url, "http://viewer:Pa55w0rd@\(stream)&token=T0k3n")
        }
    }

    func testOctoPrintSaysAWrongKeyUnderTheKeyAndAddsItsOneCamera() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        let stream = "http://127.0.0.1:\(camera.port)/?action=stream"
        let octoprint = try TestServer(script: "octoprint_server.py", arguments: ["--api-key", "OCTOKEY123456"])
        octoprint.send(["cmd": "settings", "webcam": ["webcamEnabled": true, "streamUrl": stream, "webcams": [
            ["name": "classic", "displayName": "Classic Webcam", "flipH": false, "flipV": true, "rotate90": true,
             "extras": ["streamUrl": stream]],
        ]]])
        XCTAssertNotNil(octoprint.waitFor("done"))
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.selectKind(.octoprint)
            XCTAssertEqual(dialog.apiPort.placeholderText, "80")
            dialog.fill(name: "Prusa", host: "127.0.0.1", port: octoprint.port)

            dialog.findCameras()
            XCTAssertFalse(dialog.cameraList.isSearching, "no key, no request")
            XCTAssertEqual(dialog.accessCode.errorText, "Enter OctoPrint's API key (in OctoPrint: Settings → Application Keys).")

            dialog.accessCode.text = "WRONGKEY1234"
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.accessCode.errorText, "Rejected — check it and try again.", "on the key's own field")
            XCTAssertNil(dialog.host.errorText, "not on the address")
            XCTAssertFalse(gtk_widget_get_visible(dialog.cameraList.listBox) != 0, "nothing listed")

            dialog.accessCode.text = "OCTOKEY123456"
            XCTAssertNil(dialog.accessCode.errorText, "an edit of the key clears the old answer")
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.cameraList.cameras.map(\.name), ["Classic Webcam"])
            XCTAssertEqual(subtitle(dialog.cameraList, 0), "\(stream)\nmjpeg · rotated 270°, flipped vertically")
            dialog.save()

            XCTAssertEqual(window.tabs.all.map(\.name), ["Prusa"], "one camera: the printer's own name")
            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved, Printer(id: saved.id, name: "Prusa", kind: .octoprint, host: "127.0.0.1", apiPort: octoprint.port,
                                          accessCode: "OCTOKEY123456",
                                          cameras: [PrinterCamera(id: saved.cameras[0].id, name: "Classic Webcam", url: stream, rotation: 270, flipVertical: true)]))
        }
    }

    /// A camera-streamer entry comes with its MJPEG as the fallback: the lists say so, the file
    /// keeps it, and a camera without WebRTC plays its MJPEG in the tab.
    func testACameraStreamerCameraComesWithItsMJPEGFallback() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        let webrtc = "webrtc:http://127.0.0.1:\(camera.port)/webcam/webrtc#format=camera-streamer"
        let moonraker = try moonrakerServer(webcams: [
            ["name": "Nozzle", "service": "webrtc-camerastreamer", "stream_url": "http://127.0.0.1:\(camera.port)/webcam/webrtc"],
        ], key: nil)
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.fill(.klipper, name: "Voron", host: "127.0.0.1", port: moonraker.port)
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(subtitle(dialog.cameraList, 0), "\(webrtc)\nwebrtc-camerastreamer · MJPEG when WebRTC fails")
            XCTAssertEqual(dialog.cameraRows.rowTexts, ["Nozzle — WebRTC, MJPEG when WebRTC fails · \(webrtc)"])
            dialog.url.text = "webrtc:http://127.0.0.1:\(camera.port)/cam/whep"
            XCTAssertEqual(dialog.editedCameras.map(\.mjpegFallback), [nil], "a URL typed by hand is not the one the host listed")
            dialog.url.text = webrtc
            XCTAssertEqual(dialog.editedCameras.map(\.mjpegFallback), ["stream"])
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 15) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.connectionTest.outcomes, [.passed, .passed], dialog.testResultText)
            let tested = dialog.connectionTest.rowTexts.last ?? ""
            XCTAssertTrue(tested.hasPrefix("Nozzle — Connected: MJPEG 640×480"), tested)
            XCTAssertTrue(tested.hasSuffix(" WebRTC failed, so its MJPEG plays: The camera stream was not found — check the path in the URL."), tested)
            dialog.save()

            let page = try XCTUnwrap(window.tabs.all.first)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.sessions.first?.state == .live }, "the camera plays")
            XCTAssertEqual(page.sessions.first?.stats.codec, "mjpeg")
            XCTAssertEqual(page.sessions.first?.stats.fallbackCause, .notFound)
            let stats = StatsOverlay.format(try XCTUnwrap(page.sessions.first?.stats)).split(separator: "\n")
            XCTAssertEqual(stats.prefix(2).map(String.init), ["mjpeg  640×480", "MJPEG fallback: WebRTC failed (notFound)"],
                           "the stats overlay says which path plays")
            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved.cameras.map(\.url), [webrtc])
            XCTAssertEqual(saved.cameras.map(\.mjpegFallback), ["stream"])
        }
    }

    func testEditingAKlipperPrinterShowsItsAPIAndURLAndKeepsItsMounting() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        let stream = "http://127.0.0.1:\(camera.port)/?action=stream"
        let moonraker = try moonrakerServer(webcams: [
            ["name": "Top", "service": "mjpegstreamer", "stream_url": "\(stream)&top"],
            ["name": "Nozzle", "service": "mjpegstreamer", "stream_url": stream, "rotation": 270],
        ], key: nil)
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port, accessCode: "k3yk3yk3y", cameras: [PrinterCamera(url: stream, rotation: 90, flipHorizontal: true)], notifies: false)
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try withPrinterDialog(in: directory, editing: printer) { app, window, dialog in
            XCTAssertEqual(dialog.draft.kind, .klipper)
            XCTAssertEqual([dialog.host.text, dialog.apiPort.text, dialog.accessCode.text, dialog.url.text],
                           ["127.0.0.1", "\(moonraker.port)", "k3yk3yk3y", stream])
            XCTAssertEqual(shown(dialog), ["name", "host", "port", "API key", "URL", "cameras"])

            dialog.name.text = "Voron 2.4"
            dialog.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["Voron 2.4"])
            app.flushSaves()
            var renamed = printer
            renamed.name = "Voron 2.4"
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers, [renamed],
                           "mounting, notification switch and API port kept")

            // Found again, the camera it has is the one checked; checking the other adds it.
            let again = try printerDialog(of: app, editing: renamed)
            again.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !again.cameraList.isSearching })
            XCTAssertEqual((0..<2).map { checked(again.cameraList, $0) }, [false, true])
            XCTAssertEqual(again.draft.cameras, printer.cameras, "its own camera kept as it was")
            gtk_check_button_set_active(gcast(again.cameraList.row(at: 0).check), true.gboolean)
            XCTAssertEqual(again.draft.cameras.map(\.url), [stream, "\(stream)&top"])
            again.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["Voron 2.4"])
            XCTAssertEqual(window.tabs.all.first?.cameras.map(\.title), ["Camera 1", "Top"])
            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved.cameras.first, printer.cameras.first)
            XCTAssertEqual(saved.cameras.count, 2)
        }
    }

    func testEditingAnyPrinterKeepsWhatTheDialogDoesNotShow() throws {
        let bambu = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "192.168.1.20", apiPort: 18883, serial: "00M09A350100123", accessCode: "12345678", cameras: [PrinterCamera(rotation: 180)], notifies: false)
        let camera = Printer(name: "Door", kind: .generic, cameras: [PrinterCamera(url: "rtsp://10.0.0.9/live", flipHorizontal: true)], notifies: false)
        try MainActor.assumeIsolated {
            for printer in [bambu, camera] {
                let dialog = PrinterDialog(parent: nil, editing: printer)
                XCTAssertEqual(try dialog.draft.printers().get(), [printer])
                dialog.selectKind(.klipper)
                XCTAssertEqual(dialog.apiPort.text, "7125", "a Bambu printer's MQTT port is no Moonraker port: Moonraker's usual one")
                gtk_window_destroy(gcast(dialog.window))
            }
        }
    }

    func testASearchNeverBlocksTheDialogAndEndsWithIt() throws {
        let moonraker = try moonrakerServer(webcams: [], key: nil)
        moonraker.send(["cmd": "mode", "mode": "stall"])
        XCTAssertNotNil(moonraker.waitFor("done"))
        MainActor.assumeIsolated {
            let dialog = PrinterDialog(parent: nil, editing: nil)
            dialog.present()
            dialog.selectKind(.klipper)
            dialog.host.text = "127.0.0.1"
            dialog.apiPort.text = "\(moonraker.port)"
            let started = Date()
            dialog.findCameras()
            XCTAssertLessThan(Date().timeIntervalSince(started), 0.2, "the request runs off the main loop")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.cameraList.findButton), 0, "one search at a time")
            XCTAssertNotNil(moonraker.waitFor("request"))
            var ticks = 0
            let timer = RepeatingTimer(milliseconds: 50) { ticks += 1 }
            _ = iterateMainContext(timeout: 1) { false }
            timer.cancel()
            XCTAssertGreaterThanOrEqual(ticks, 10, "the main loop kept running while the host stalls")
            XCTAssertEqual(establishedConnections(to: moonraker.port), 1)

            gtk_window_destroy(gcast(dialog.window))
            XCTAssertTrue(iterateMainContext(timeout: 3) { establishedConnections(to: moonraker.port) == 0 },
                          "closing the dialog ends the request (its own deadline is 10 s)")
        }
    }

    // MARK: Helpers

    private func moonrakerServer(webcams: [[String: Any]], key: String?) throws -> TestServer {
        let file = try makeTemporaryDirectory().appendingPathComponent("webcams.json")
        try JSONSerialization.data(withJSONObject: webcams).write(to: file)
        return try TestServer(script: "moonraker_server.py", arguments: ["--webcams", file.path] + (key.map { ["--api-key", $0] } ?? []))
    }

    /// The dialog's fields shown now, below the kind.
    @MainActor
    private func shown(_ dialog: PrinterDialog) -> [String] {
        let fields = [("name", dialog.name), ("host", dialog.host), ("port", dialog.apiPort), (dialog.accessCode.titleText, dialog.accessCode),
                      ("serial", dialog.serial), ("URL", dialog.url), ("cameras", dialog.cameras)]
        return fields.filter { gtk_widget_get_visible($0.1.widget) != 0 }.map(\.0)
    }

    @MainActor
    private func checked(_ list: ImportedCameraList, _ index: Int) -> Bool {
        gtk_check_button_get_active(gcast(list.row(at: index).check)) != 0
    }

    @MainActor
    private func subtitle(_ list: ImportedCameraList, _ index: Int) -> String {
        String(cString: adw_action_row_get_subtitle(gcast(list.row(at: index).row)))
    }

    /// Open TCP connections from any process here to the loopback `port` (/proc/net/tcp, state 01).
    private func establishedConnections(to port: Int) -> Int {
        // Read to the end: /proc files have no size, and a one-page read misses rows.
        let table = String(decoding: FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let remote = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").dropFirst().filter { line in
            let columns = line.split(separator: " ")
            return columns.count > 3 && columns[2] == remote && columns[3] == "01"
        }.count
    }
}
