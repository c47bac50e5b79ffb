import Foundation
@testable import StatusKit
import StreamKit
import XCTest

/// What a Klipper or OctoPrint host's camera list may name beside real cameras: files, FFmpeg's
/// own protocols, cloud metadata addresses. Listed with the reason, never playable; a camera on
/// another host says so; paths stay percent-encoded.
final class ImportedCameraRefusalTests: XCTestCase {
    func testOnlyNetworkCamerasOffLinkLocalAddressesPass() {
        for url in ["rtsp://10.0.0.5:8554/cam", "rtsps://10.0.0.5:322/streaming/live/1", "http://10.0.0.5/webcam/?action=stream",
                    "https://[2001:db8::1]/cam"] {
            XCTAssertNil(NetworkCamera.refusal(url), url)
        }
        for url in ["file:///etc/passwd", "/etc/passwd", "data:image/jpeg;base64,AAAA", "concat:/etc/passwd|/etc/shadow",
                    "subfile:,start,0,end,10,:/etc/passwd", "bambu-jpeg://10.0.0.5?code=12345678", "gopher://10.0.0.5/", ""] {
            XCTAssertEqual(NetworkCamera.refusal(url), "not a network camera", url)
        }
        for url in ["http://169.254.169.254/latest/meta-data", "rtsp://169.254.1.1/x", "http://[fe80::1]/cam", "http://[FE80::abcd%25eth0]/"] {
            XCTAssertEqual(NetworkCamera.refusal(url), "a link-local address, where no camera streams", url)
        }
    }

    func testAListedFileCannotBeAddedAndPathsStayEncoded() {
        let web = URL(string: "http://10.0.0.5/")!
        let file = CameraImport.moonrakerCamera(["name": "x", "service": "mjpegstreamer", "stream_url": "file:///etc/passwd"], web: web)
        XCTAssertEqual(file?.refusal, "not a network camera")
        let mediamtx = CameraImport.moonrakerCamera(["name": "m", "service": "webrtc-mediamtx",
                                                     "stream_url": "http://10.0.0.5:8889/%24%7BHOME%7D/"], web: web)
        XCTAssertEqual(mediamtx?.url, "webrtc:http://10.0.0.5:8889/%24%7BHOME%7D/whep", "never decoded into ${HOME}")
        let streamer = CameraImport.moonrakerCamera(["name": "s", "service": "webrtc-camerastreamer",
                                                     "stream_url": "/cam%2Fone/webrtc"], web: web)
        XCTAssertEqual(streamer?.url, "webrtc:http://10.0.0.5/cam%2Fone/webrtc#format=camera-streamer")
        let go2rtc = CameraImport.moonrakerCamera(["name": "g", "service": "webrtc-go2rtc",
                                                   "stream_url": "http://10.0.0.5:1984/webrtc.html?src=%24%7BX%7D"], web: web)
        XCTAssertEqual(go2rtc?.url, "http://10.0.0.5:1984/api/stream.mjpeg?src=%24%7BX%7D")
    }
}
