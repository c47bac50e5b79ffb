import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// The address field takes what people paste: the URL OctoPrint is opened at, `host:port`, an IPv6
/// address in brackets with its port. Leaving the field, or Enter, splits it into the address and
/// the port field (which shows the choice's usual port), and a real OctoPrint answers at what was
/// split; a bare IPv6 address stays whole, and a printer without a port field keeps the address.
final class PrinterDialogAddressTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAPastedURLOrHostAndPortIsSplitWhenLeftAndOctoPrintAnswersThere() throws {
        let servers = try octoPrintWithACamera(), octoprint = servers.octoprint
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            _ = try PrinterDialogFormTests.shown(dialog)

            // The usual port is the port field's value, following the choice while not typed over.
            dialog.selectKind(.klipper)
            XCTAssertEqual(dialog.apiPort.text, "7125")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-usual-port")
            dialog.select(.go2rtc)
            XCTAssertEqual(dialog.apiPort.text, "1984")
            dialog.selectKind(.octoprint)
            XCTAssertEqual(dialog.apiPort.text, "80")

            dialog.name.text = "Prusa"
            dialog.accessCode.text = "OCTOKEY123456"
            dialog.focus(dialog.host)
            dialog.host.text = "http://127.0.0.1:\(octoprint.port)/"
            XCTAssertEqual(dialog.host.text, "http://127.0.0.1:\(octoprint.port)/", "not while it is typed")
            dialog.focus(dialog.name)
            XCTAssertEqual([dialog.host.text, dialog.apiPort.text], ["127.0.0.1", "\(octoprint.port)"], "split once left")
            XCTAssertNil(dialog.host.errorText)
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-address-split")
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.cameraList.cameras.map(\.url), [servers.stream], "OctoPrint answered at the address and port split off")

            dialog.selectKind(.klipper)
            XCTAssertEqual(dialog.apiPort.text, "\(octoprint.port)", "a port typed stays")
            for (typed, host, port) in [("[::1]:7126", "::1", "7126"), ("http://[::1]:5000/", "::1", "5000"),
                                        ("::1", "::1", "5000"), ("127.0.0.1:", "127.0.0.1", "5000")] {
                dialog.focus(dialog.host)
                dialog.host.text = typed
                dialog.focus(dialog.name)
                XCTAssertEqual([dialog.host.text, dialog.apiPort.text], [host, port], typed)
                XCTAssertNil(dialog.host.errorText, typed)
            }
            dialog.focus(dialog.host)
            dialog.host.text = "printer:abc"
            dialog.focus(dialog.name)
            XCTAssertEqual(dialog.host.errorText, "\"printer:abc\" is not an IP address or host name.", "no port: said, not looked up")

            dialog.selectKind(.bambuRTSPS(nil))
            dialog.focus(dialog.host)
            dialog.host.text = "http://127.0.0.1:8883/"
            dialog.focus(dialog.name)
            XCTAssertEqual(dialog.host.text, "127.0.0.1", "a Bambu printer's ports are fixed")
        }
    }

    func testEnterSplitsThePastedAddressAndAdds() throws {
        let windowManager = try WindowManager()
        let servers = try octoPrintWithACamera(), octoprint = servers.octoprint
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.selectKind(.octoprint)
            dialog.name.text = "Prusa"
            dialog.accessCode.text = "OCTOKEY123456"
            dialog.host.text = "127.0.0.1"
            dialog.apiPort.text = "\(octoprint.port)"
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.cameraList.cameras.count, 1)
            let closed = PrinterDialogFormTests.destroyed(dialog.window), xid = try PrinterDialogFormTests.shown(dialog)

            dialog.focus(dialog.host)
            dialog.host.text = "http://127.0.0.1:\(octoprint.port)/"
            dialog.apiPort.text = ""
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5, until: closed), "Enter splits the address and adds")
            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved.host, "127.0.0.1")
            XCTAssertEqual(saved.apiPort, octoprint.port)
        }
        withExtendedLifetime((windowManager, servers)) {}
    }

    /// A real OctoPrint (API key OCTOKEY123456) listing one real MJPEG camera, at `stream`.
    private func octoPrintWithACamera() throws -> (octoprint: TestServer, camera: TestServer, stream: String) {
        let camera = try TestServer(script: "mjpeg_server.py")
        let stream = "http://127.0.0.1:\(camera.port)/?action=stream"
        let octoprint = try TestServer(script: "octoprint_server.py", arguments: ["--api-key", "OCTOKEY123456"])
        octoprint.send(["cmd": "settings", "webcam": ["webcamEnabled": true, "streamUrl": stream]])
        XCTAssertNotNil(octoprint.waitFor("done"))
        return (octoprint, camera, stream)
    }
}
