import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Test Connection tries what would be saved, against real peers on loopback: a Bambu printer's
/// MQTT login (mosquitto, `bambu_mqtt_printer.py`) happens before Add and a wrong access code is
/// said on its field, which the keyboard and the scrolled form go to; every camera of a printer
/// gets a row (a dead one fails on its own URL); and Find Cameras leaves a camera nothing answers
/// for unchecked (Moonraker's camera-streamer at a path of the host's port 80).
final class ConnectionTestDialogTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testABambuPrintersLoginIsTriedBeforeAddAndARejectedCodeTakesTheKeyboard() throws {
        let host = randomLoopbackAddress(), code = "24681357"
        let camera = try TestServer(script: "bambu_jpeg_server.py",
                                    arguments: ["--bind", host, "--port", "6000", "--password", code, "--width", "640", "--height", "360", "--fps", "2"])
        addTeardownBlock { camera.stop() }
        let mqtt = try TestServer(script: "bambu_mqtt_printer.py",
                                  arguments: ["--bind", host, "--port", "\(StatusEndpoint.bambuPort)", "--code", code, "--model", "P1S", "--partial"])
        addTeardownBlock { mqtt.stop() }
        let serial = try XCTUnwrap(mqtt.waitFor("ready")?.string("serial"))
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.selectKind(.bambuJPEG(.p1s))
            _ = try PrinterDialogFormTests.shown(dialog)
            dialog.fill(name: "Bench P1S", host: host, code: code)
            dialog.serial.text = serial

            dialog.testConnection()
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.connectionTest.button), 0, "one test at a time")
            XCTAssertEqual(dialog.connectionTest.outcomes, [.running, .running])
            XCTAssertTrue(iterateMainContext(timeout: 30) { dialog.connectionTest.isDone }, dialog.testResultText)
            let login = mqtt.waitFor("client-connected") { $0.string("user") == "bblp" && $0.fields["printer"] as? Bool != true }
            XCTAssertNotNil(login, "the broker saw the test's login")
            XCTAssertTrue(window.tabs.all.isEmpty, "before anything was added")
            XCTAssertEqual(dialog.connectionTest.outcomes, [.passed, .passed], dialog.testResultText)
            let rows = dialog.connectionTest.rowTexts
            XCTAssertEqual(rows.first, "Printer status — Connected: the printer says it is “Idle”.")
            XCTAssertTrue(rows.last?.hasPrefix("Camera 1 — Connected: ") == true && rows.last?.contains("640×360") == true, rows.last ?? "")
            XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.connectionTest.button), 0)
            let scroller = try XCTUnwrap(Self.scroller(of: dialog))
            Self.scrollToEnd(scroller)
            ScreenCapture.saveIfAsked(as: "dialog-test-passed")

            // A wrong code: refused at CONNECT, said on the code's field, which the keyboard goes to
            // from wherever the form was scrolled.
            dialog.accessCode.text = "11112222"
            dialog.focus(dialog.name)
            Self.scrollToEnd(scroller)
            XCTAssertFalse(Self.isInView(dialog.accessCode.widget, scroller), "scrolled to the test, the code is out of sight")
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 30) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertNotNil(mqtt.waitFor("client-refused"), "the broker refused the login")
            XCTAssertEqual(dialog.connectionTest.outcomes.first, .failed)
            XCTAssertEqual(dialog.connectionTest.rowTexts.first,
                           "Printer status — Status: the access code or API key was rejected — check it in the printer's settings.")
            XCTAssertEqual(dialog.accessCode.errorText, "Rejected — check it and try again.")
            XCTAssertTrue(PrinterDialogFormTests.holdsFocus(dialog.accessCode, in: dialog), "the keyboard on the code")
            XCTAssertTrue(iterateMainContext(timeout: 2) { Self.isInView(dialog.accessCode.widget, scroller) }, "and the code and its message in sight")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "a rejected code is not added")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-test-rejected-code")
        }
    }

    func testEveryCameraOfThePrinterHasARowAndADeadOneFailsOnItsOwnURL() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        let moonraker = try TestServer(script: "moonraker_server.py")
        let live = "http://127.0.0.1:\(camera.port)/?action=stream", dead = "http://127.0.0.1:\(closedLoopbackPort())/?action=stream"
        let printer = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                              cameras: [PrinterCamera(name: "Nozzle", url: live), PrinterCamera(name: "Bed", url: dead)], notifies: false)
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory, editing: printer) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            _ = try PrinterDialogFormTests.shown(dialog)
            XCTAssertEqual(dialog.url.text, live, "the first camera shown")
            dialog.focus(dialog.name)

            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 30) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertNotNil(moonraker.waitFor("request") { $0.string("path")?.hasPrefix("/printer/objects/query?") == true }, "the status asked")
            XCTAssertEqual(dialog.connectionTest.outcomes, [.passed, .passed, .failed], dialog.testResultText)
            let rows = dialog.connectionTest.rowTexts
            XCTAssertEqual(rows.count, 3)
            XCTAssertTrue(rows[0].hasPrefix("Printer status — Connected: the printer says it is "), rows[0])
            XCTAssertTrue(rows[1].hasPrefix("Nozzle — Connected: MJPEG 640×480."), rows[1])
            XCTAssertTrue(rows[2].hasPrefix("Bed — "), rows[2])
            XCTAssertFalse(rows[2].contains("Connected"), rows[2])
            XCTAssertEqual(dialog.selectedCamera, 1, "the dead camera is shown")
            XCTAssertEqual(dialog.url.text, dead)
            XCTAssertEqual(dialog.url.errorText, "Nothing answers at this URL's address and port — check them.")
            XCTAssertTrue(PrinterDialogFormTests.holdsFocus(dialog.url, in: dialog), "the keyboard on its URL")
            XCTAssertEqual([dialog.name, dialog.host, dialog.apiPort].map(\.errorText), [nil, nil, nil])
            let scroller = try XCTUnwrap(Self.scroller(of: dialog))
            XCTAssertTrue(iterateMainContext(timeout: 2) { Self.isInView(dialog.url.widget, scroller) }, "the URL and its message in sight")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-test-one-failure-field")
            Self.scrollToEnd(scroller)
            ScreenCapture.saveIfAsked(as: "dialog-test-one-failure")

            // Its row takes the keyboard back there.
            dialog.focus(dialog.name)
            XCTAssertTrue(PrinterDialogFormTests.holdsFocus(dialog.name, in: dialog))
            dialog.revealFailure(at: 2)
            XCTAssertTrue(PrinterDialogFormTests.holdsFocus(dialog.url, in: dialog))
        }
    }

    /// A camera already streaming in its tab (a tab keeps every camera of its printer connected) is
    /// not opened again — many take one client only —, each one: its row says so.
    func testNoCameraStreamingInItsTabIsOpenedASecondTime() throws {
        let shown = try TestServer(script: "mjpeg_server.py"), other = try TestServer(script: "mjpeg_server.py")
        let printer = Printer(name: "Door", kind: .generic,
                              cameras: [PrinterCamera(name: "Front", url: "http://127.0.0.1:\(shown.port)/?action=stream"),
                                        PrinterCamera(name: "Back", url: "http://127.0.0.1:\(other.port)/?action=stream")], notifies: false)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.page(id: printer.id))
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.sessions.allSatisfy { $0.state == .live } }, "the tab plays both cameras")
            let dialog = try printerDialog(of: app, editing: printer)
            defer { gtk_window_destroy(gcast(dialog.window)) }

            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 20) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.connectionTest.outcomes, [.passed, .passed], dialog.testResultText)
            XCTAssertEqual(dialog.connectionTest.rowTexts.first, "Front — Connected — this camera is streaming in its tab right now.")
            XCTAssertEqual(dialog.connectionTest.rowTexts.last, "Back — Connected — this camera is streaming in its tab right now.")
            XCTAssertEqual([shown, other].map { $0.events(named: "request").count }, [1, 1], "the tab's clients only")
        }
    }

    func testFindCamerasListsACameraNothingAnswersForWithoutCheckingIt() throws {
        // The host's port 80, where a relative camera URL points: closed on an address of its own.
        let host = randomLoopbackAddress()
        guard !Self.answers(host: host, port: 80) else { throw XCTSkip("something listens on port 80 of every address") }
        let camera = try TestServer(script: "mjpeg_server.py")
        let stream = "http://127.0.0.1:\(camera.port)/?action=stream"
        let file = try makeTemporaryDirectory().appendingPathComponent("webcams.json")
        try JSONSerialization.data(withJSONObject: [
            ["name": "Nozzle", "service": "mjpegstreamer", "stream_url": stream],
            ["name": "Chamber", "service": "webrtc-camerastreamer", "stream_url": "/webcam/webrtc"],
        ]).write(to: file)
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: ["--bind", host, "--webcams", file.path])
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.selectKind(.klipper)
            _ = try PrinterDialogFormTests.shown(dialog)
            dialog.fill(name: "Voron", host: host, port: moonraker.port)

            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 15) { !dialog.cameraList.isSearching })
            let list = dialog.cameraList
            XCTAssertEqual(list.cameras.map(\.name), ["Nozzle", "Chamber"])
            XCTAssertEqual((0..<2).map { gtk_check_button_get_active(gcast(list.row(at: $0).check)) != 0 }, [true, false],
                           "the camera nothing answers for is not chosen")
            XCTAssertNotEqual(gtk_widget_get_sensitive(list.row(at: 1).row), 0, "but can be")
            let webrtc = "webrtc:http://\(host)/webcam/webrtc#format=camera-streamer"
            XCTAssertEqual(Self.subtitle(list, 1), "Not reachable at \(webrtc) — nothing answers there\nwebrtc-camerastreamer · MJPEG when WebRTC fails")
            XCTAssertEqual(Self.subtitle(list, 0), "\(stream)\nmjpegstreamer · on 127.0.0.1, not the printer's host")
            XCTAssertEqual(dialog.draft.cameras.map(\.url), [stream], "only the camera that answered is the printer's")
            _ = iterateMainContext(timeout: 1) { false }
            dialog.reveal(dialog.cameras)
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-find-unreachable")
        }
    }

    // MARK: Helpers

    /// The dialog's scrolled form.
    @MainActor
    private static func scroller(of dialog: PrinterDialog) -> UnsafeMutablePointer<GtkWidget>? {
        adw_window_get_content(gcast(dialog.window)).flatMap { gtk_widget_get_last_child($0) }
    }

    /// Scrolls the form to its end, where the connection test is, and lets it draw.
    @MainActor
    private static func scrollToEnd(_ scroller: UnsafeMutablePointer<GtkWidget>) {
        _ = iterateMainContext(timeout: 1) { false }
        let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scroller))
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        _ = iterateMainContext(timeout: 1) { false }
    }

    /// Whether all of `widget` shows inside the scrolled window `scroller`.
    @MainActor
    private static func isInView(_ widget: UnsafeMutablePointer<GtkWidget>, _ scroller: UnsafeMutablePointer<GtkWidget>) -> Bool {
        var origin = graphene_point_t(x: 0, y: 0), top = graphene_point_t()
        guard gtk_widget_compute_point(widget, scroller, &origin, &top) != 0 else { return false }
        return top.y >= 0 && top.y + Float(gtk_widget_get_height(widget)) <= Float(gtk_widget_get_height(scroller))
    }

    @MainActor
    private static func subtitle(_ list: ImportedCameraList, _ index: Int) -> String {
        adw_action_row_get_subtitle(gcast(list.row(at: index).row)).map { String(cString: $0) } ?? ""
    }

    /// Whether something accepts a TCP connection at `host:port`.
    private static func answers(host: String, port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
