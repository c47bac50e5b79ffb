import CGtk
import GtkKit
@testable import LayerwatchApp
import TestSupport
import XCTest

/// The Add Printer dialog with a `webrtc:` camera URL against real loopback peers (the aiortc camera
/// `webrtc_camera.py`): the URL is checked once left and taken, Test Connection says what it
/// decoded, and a signalling endpoint that refuses, an answer without video and media that never
/// arrives (ICE finds no path) say so under the URL, each in its own words.
final class WebRTCDialogTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTestConnectionSaysWhatTheWebRTCCameraSentOrWhyNotUnderItsURL() throws {
        let camera = try TestServer(script: "webrtc_camera.py", arguments: ["--style", "whep"])
        addTeardownBlock { camera.stop() }
        let videoless = try TestServer(script: "webrtc_camera.py", arguments: ["--hostile", "no-video"])
        addTeardownBlock { videoless.stop() }
        let unreachable = try TestServer(script: "webrtc_camera.py", arguments: ["--hostile", "dead-candidate"])
        addTeardownBlock { unreachable.stop() }
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.select(.camera)
            dialog.name.text = "K2 Plus"
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(dialog.window) != 0 })

            /// Types `url`, leaves the field, presses Test Connection and waits for its answer.
            @MainActor func test(_ url: String) {
                dialog.focus(dialog.url)
                dialog.url.text = url
                dialog.focus(dialog.name)
                XCTAssertNil(dialog.url.errorText, "\(url) is a camera URL")
                XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "\(url) can be added")
                dialog.testConnection()
                XCTAssertEqual(gtk_widget_get_sensitive(dialog.connectionTest.button), 0, "testing")
                XCTAssertTrue(iterateMainContext(timeout: 20) { gtk_widget_get_sensitive(dialog.connectionTest.button) != 0 },
                              "\(url): \(dialog.testResultText)")
            }

            dialog.focus(dialog.url)
            dialog.url.text = "webrtc:rtsp://127.0.0.1:\(camera.port)/cam"
            dialog.focus(dialog.name)
            XCTAssertEqual(dialog.url.errorText, "The URL is not valid: a webrtc: URL goes on with the camera's http:// or https:// signalling address.",
                           "a webrtc: URL is checked once left")
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0)

            test("webrtc:http://127.0.0.1:\(camera.port)/cam/whep")
            XCTAssertTrue(dialog.testResultText.hasPrefix("Connected: H264 320×240."), dialog.testResultText)
            XCTAssertNil(dialog.url.errorText)
            XCTAssertTrue(iterateMainContext(timeout: 10) { camera.events(named: "delete").count == 1 }, "the test ends its WHEP session")

            test("webrtc:http://127.0.0.1:\(closedLoopbackPort())/cam/whep")
            XCTAssertEqual(dialog.url.errorText, "Nothing answers at this URL's address and port — check them.")
            XCTAssertEqual(dialog.connectionTest.outcomes, [.failed])

            test("webrtc:http://127.0.0.1:\(videoless.port)/cam/whep")
            XCTAssertEqual(dialog.url.errorText, "The camera sent something Layerwatch could not understand (the camera's WebRTC answer has no video).")
            XCTAssertEqual(dialog.connectionTest.outcomes, [.failed])
            XCTAssertNil(dialog.name.errorText, "a camera's failure stands under its URL only")

            test("webrtc:http://127.0.0.1:\(unreachable.port)/cam/whep")
            XCTAssertEqual(dialog.url.errorText,
                           "The camera answered, but its video cannot reach this computer — check that UDP between the two is not blocked.")
            XCTAssertEqual(dialog.connectionTest.outcomes, [.failed])
        }
    }
}
