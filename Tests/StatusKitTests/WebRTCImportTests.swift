import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Klipper host's camera-streamer entry, imported from Moonraker, plays over WebRTC: the import
/// gives a `webrtc:…#format=camera-streamer` URL, and that URL shows the camera's pictures; its
/// MJPEG beside it is the fallback, which plays when the camera has no WebRTC.
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

    func testMoonrakerCameraStreamerEntryFallsBackToItsMJPEG() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        let moonraker = try TestServer(script: "moonraker_server.py")
        let host = "http://127.0.0.1:\(camera.port)"
        moonraker.send(["cmd": "webcams", "list": [
            ["name": "nozzle", "service": "webrtc-camerastreamer", "stream_url": "\(host)/webcam/webrtc",
             "snapshot_url": "\(host)/webcam/?action=snapshot"],
            ["name": "bed", "service": "webrtc-camerastreamer", "stream_url": "\(host)/webcam2/",
             "snapshot_url": "\(host)/webcam2/?action=snapshot&token=abc123xyz"],
            ["name": "door", "service": "webrtc-camerastreamer", "stream_url": "\(host)/door/"],
            ["name": "plain", "service": "mjpegstreamer", "stream_url": "\(host)/webcam/?action=stream"],
        ]])
        XCTAssertNotNil(moonraker.waitFor("done", timeout: 5))
        let imported = try CameraImport.cameras(at: .moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: nil))
        XCTAssertEqual(imported.map(\.url), ["webrtc:\(host)/webcam/webrtc#format=camera-streamer", "webrtc:\(host)/webcam2/#format=camera-streamer",
                                             "webrtc:\(host)/door/#format=camera-streamer", "\(host)/webcam/?action=stream"])
        XCTAssertEqual(imported.map(\.mjpegFallback), ["stream", "/webcam2/?action=stream", nil, nil],
                       "beside /webrtc, else from the snapshot URL (its token left out), else none; only camera-streamer has one")

        let nozzle = try XCTUnwrap(imported.first)
        let source = try StreamSource.parse(try XCTUnwrap(nozzle.url)).withMJPEGFallback(nozzle.mjpegFallback)
        XCTAssertEqual(source.description, "webrtc:\(host)/webcam/webrtc#format=camera-streamer, MJPEG fallback \(host)/webcam/stream")
        let session = StreamSession(source: source)
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        let frame = try XCTUnwrap(recorder.waitForFrames(3, timeout: 20), "states: \(recorder.states)")
        XCTAssertEqual(PixelSize(width: frame.width, height: frame.height), PixelSize(width: 640, height: 480))
        SMPTEBars.assertBars(in: frame, intensity: .ffmpeg)
        XCTAssertEqual(session.stats.codec, "mjpeg")
        XCTAssertEqual(session.stats.fallbackCause, .notFound, "camera-streamer without WebRTC answers 404")
    }
}
