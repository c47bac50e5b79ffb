import Foundation
import TestSupport
import XCTest

/// `layerwatch probe` and `record` of `webrtc:…` against a real aiortc camera on loopback: the probe
/// decodes the camera's pictures at their size, masks the URL's token, and ends the WHEP session it
/// opened; a recording holds the camera's H.264 as sent, decodable without errors, from Debian's
/// aiortc and from PyPI's.
final class WebRTCProbeCommandTests: XCTestCase {
    func testProbeDecodesAWHEPCameraAndDeletesItsSession() throws {
        let server = try TestServer(script: "webrtc_camera.py", arguments: ["--style", "whep"])
        let url = "webrtc:http://127.0.0.1:\(server.port)/cam/whep?token=Qw3rtyT0ken"
        let run = try CommandRun.product("layerwatch", ["probe", url, "--frames", "10"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("resolution   320×240"), run.stdout)
        XCTAssertTrue(run.stdout.contains("codec        h264"), run.stdout)
        XCTAssertFalse((run.stdout + run.stderr).contains("Qw3rtyT0ken"))
        XCTAssertNotNil(server.waitFor("delete", timeout: 5), "the probe must end its WHEP session")
    }

    /// From Debian's aiortc and from PyPI's current one (which takes only an ECDSA certificate).
    func testRecordKeepsTheCamerasH264() throws {
        for aiortc in Aiortc.allCases {
            let server = try TestServer(script: "webrtc_camera.py", arguments: ["--style", "go2rtc"], interpreter: try aiortc.python())
            let file = try makeTemporaryDirectory().appendingPathComponent("camera.mkv")
            let url = "webrtc:http://127.0.0.1:\(server.port)/api/webrtc?src=printer"
            let run = try CommandRun.product("layerwatch", ["record", url, "--seconds", "3", "-o", file.path], timeout: 40)
            XCTAssertEqual(run.status, 0, "\(aiortc) aiortc: " + run.stdout + run.stderr)
            let recorded = try RecordedFile(file)
            XCTAssertEqual(recorded.codec, "h264", "\(aiortc) aiortc")
            XCTAssertEqual([recorded.width, recorded.height], [320, 240], "\(aiortc) aiortc")
            // ffmpeg's null output turns the camera's slightly uneven spacing (31–34 ms, its clock against
            // ours) into a constant rate and complains when two pictures land on one tick: not a decode error.
            let decodeErrors = recorded.decodeErrors.split(separator: "\n").filter { !$0.contains("non monotonically increasing dts") }
            XCTAssertEqual(decodeErrors, [], "\(aiortc) aiortc")
            XCTAssertGreaterThanOrEqual(recorded.frames, 45, "\(aiortc) aiortc: 30 pictures a second for 3 s")
        }
    }

    func testProbeOfARefusedSignallingEndpointSaysRefused() throws {
        let run = try CommandRun.product("layerwatch", ["probe", "webrtc:http://127.0.0.1:\(closedLoopbackPort())/cam/whep", "--json"])
        XCTAssertEqual(run.status, 4, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("\"refused\""), run.stdout)
    }
}
