import Foundation
import TestSupport
import XCTest

/// `layerwatch probe webrtc:…` against a real aiortc camera on loopback: it decodes the camera's
/// pictures at their size, masks the URL's token, and ends the WHEP session it opened.
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

    func testProbeOfARefusedSignallingEndpointSaysRefused() throws {
        let run = try CommandRun.product("layerwatch", ["probe", "webrtc:http://127.0.0.1:\(closedLoopbackPort())/cam/whep", "--json"])
        XCTAssertEqual(run.status, 4, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("\"refused\""), run.stdout)
    }
}
