import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// A WebRTC (WHEP) address pasted without `webrtc:` is recognised — by its path, or by a real HTTP
/// server answering 405 to Test Connection's GET — and said in the user's words with a button that
/// puts `webrtc:` before it; FFmpeg's words never reach the dialog, and the camera's row shows the
/// URL as it is typed.
final class PrinterDialogWebRTCAddressTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testAWHEPPathIsRecognisedAndTheButtonFixesIt() throws {
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.selectKind(.generic)
            _ = try PrinterDialogFormTests.shown(dialog)
            dialog.name.text = "Door"
            dialog.focus(dialog.url)
            let whep = "http://127.0.0.1:8889/door/whep"
            dialog.url.text = whep
            XCTAssertEqual(dialog.cameraRows.rowTexts, ["Camera 1 — \(whep)"], "the row shows the URL as typed")
            dialog.focus(dialog.name)
            XCTAssertEqual(dialog.url.errorText, "This looks like a WebRTC (WHEP) address — use webrtc:http://…")
            XCTAssertNotEqual(gtk_widget_get_visible(dialog.useWebRTC), 0, "with the button that fixes it")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "it would only fail with HTTP 405")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-whep-path")

            XCTAssertNotEqual(gtk_widget_activate(dialog.useWebRTC), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { dialog.url.text.hasPrefix("webrtc:") }, "a button press clicks after a moment")
            XCTAssertEqual(dialog.url.text, "webrtc:\(whep)")
            XCTAssertNil(dialog.url.errorText)
            XCTAssertEqual(gtk_widget_get_visible(dialog.useWebRTC), 0)
            XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.saveButton), 0)
            XCTAssertEqual(dialog.cameraRows.rowTexts, ["Camera 1 — webrtc:\(whep)"])

            // go2rtc's WHEP endpoint too; an RTSP address or a camera's MJPEG is no WebRTC address.
            dialog.url.text = "https://127.0.0.1:1984/api/webrtc?src=door"
            XCTAssertNotEqual(gtk_widget_get_visible(dialog.useWebRTC), 0)
            for url in ["rtsp://127.0.0.1:8554/whep", "http://127.0.0.1:8080/?action=stream"] {
                dialog.url.text = url
                XCTAssertEqual(gtk_widget_get_visible(dialog.useWebRTC), 0, url)
                XCTAssertNil(dialog.url.errorText, url)
            }
        }
    }

    func testACameraAnswering405ToTestConnectionIsToldAsAWebRTCAddress() throws {
        let server = try TestServer(script: "hostile_http_server.py")
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.selectKind(.generic)
            _ = try PrinterDialogFormTests.shown(dialog)
            dialog.name.text = "Door"
            let url = "http://127.0.0.1:\(server.port)/post-only"
            dialog.url.text = url
            XCTAssertEqual(gtk_widget_get_visible(dialog.useWebRTC), 0, "nothing in the path says WebRTC")

            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 15) { dialog.url.errorText != nil }, dialog.testResultText)
            XCTAssertEqual(dialog.url.errorText, "This looks like a WebRTC (WHEP) address — use webrtc:http://…")
            XCTAssertNotEqual(gtk_widget_get_visible(dialog.useWebRTC), 0)
            for words in ["Server returned", "4XX", "HTTP error 405 Method"] {
                XCTAssertFalse(dialog.testResultText.contains(words), dialog.testResultText)
            }
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "dialog-whep-405")

            XCTAssertNotEqual(gtk_widget_activate(dialog.useWebRTC), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { dialog.url.text.hasPrefix("webrtc:") })
            XCTAssertEqual(dialog.url.text, "webrtc:\(url)")
            XCTAssertNil(dialog.url.errorText)
        }
    }
}
