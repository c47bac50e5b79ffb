import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Klipper host's camera-streamer entry, imported from Moonraker, plays over WebRTC: the import
/// gives a `webrtc:…#format=camera-streamer` URL, and that URL shows the camera's pictures.
final class WebRTCImportTests: XCTestCase {
    func testMoonrakerCameraStreamerEntryPlaysOverWebRTC() throws {
        let camera = try TestServer(script: "webrtc_camera.py", arguments: ["--style", "camera-streamer"])
        let moonraker = try TestServer(script: "moonraker_server.py")
        moonraker.send(["cmd": "webcams", "list": [
            ["name": "nozzle", "service": "webrtc-camerastreamer", "stream_url": "http://127.0.0.1:\(camera.port)/webcam/webrtc",
             "enabled": true],
        ]])
        XCTAssertNotNil(moonraker.waitFor("done", timeout: 5))
        let imported = try CameraImport.cameras(at: .moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: nil))
        let url = try XCTUnwrap(imported.first?.url)
        XCTAssertEqual(url, "webrtc:http://127.0.0.1:\(camera.port)/webcam/webrtc#format=camera-streamer")
        XCTAssertNil(imported.first?.refusal)
        let session = StreamSession(source: try StreamSource.parse(url))
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 20), "states: \(recorder.states)")
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 320, height: 240))
        let red = frame.rgb(x: 80, y: 60)
        XCTAssertTrue(red.r > 200 && red.g < 60 && red.b < 60, "the top left quadrant is \(red)")
    }
}
