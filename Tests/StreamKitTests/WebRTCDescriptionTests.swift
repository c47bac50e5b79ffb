import CFFmpeg
@testable import StreamKit
import XCTest

/// What `WebRTCDescription` keeps of a camera's SDP (read by GStreamer's parser) and how it refuses
/// one, on descriptions written out here: the candidates webrtcbin may contact, the formats and fmtp
/// lines it gets, the codec chosen, and each refusal in its own words.
final class WebRTCDescriptionTests: XCTestCase {
    private let camera = "192.0.2.7"

    /// Layerwatch's offer: H.264 (102), then VP8 (96).
    private let offer = sdp(video: "102 96", ["a=rtpmap:102 H264/90000", "a=rtpmap:96 VP8/90000",
                                             "a=candidate:1 1 udp 2130706431 192.0.2.1 50000 typ host"])

    private static func sdp(video formats: String, _ lines: [String], session: [String] = []) -> String {
        (["v=0", "o=- 1 1 IN IP4 0.0.0.0", "s=-", "t=0 0"] + session + ["m=video 9 UDP/TLS/RTP/SAVPF \(formats)",
                                                                       "c=IN IP4 0.0.0.0", "a=mid:0"] + lines)
            .joined(separator: "\r\n") + "\r\n"
    }

    private func lines(_ text: String, _ prefix: String) -> [String] {
        text.components(separatedBy: "\r\n").filter { $0.hasPrefix(prefix) }
    }

    private func failure(_ text: String, answering: String? = nil) -> StreamFailure? {
        do {
            _ = try WebRTCDescription(text, cameraAddress: camera, answering: answering)
            return nil
        } catch {
            return error.failure
        }
    }

    func testOnlyTheTwoHighestPriorityUDPCandidatesAtTheCameraAreKeptForEachComponent() throws {
        let answer = Self.sdp(video: "102", ["a=rtpmap:102 H264/90000"] + [
            "a=candidate:1 1 udp 100 \(camera) 5000 typ host",
            "a=candidate:2 1 udp 300 \(camera) 5001 typ host",
            "a=candidate:3 1 udp 300 \(camera) 5002 typ host",
            "a=candidate:4 1 udp 300 \(camera) 5003 typ host",
            "a=candidate:5 1 tcp 900 \(camera) 5004 typ host tcptype passive",
            "a=candidate:6 1 udp 900 10.0.0.1 5005 typ host",
            "a=candidate:7 2 udp 1 \(camera) 5006 typ host",
        ], session: ["a=candidate:8 1 udp 999 \(camera) 5007 typ host"])
        let description = try WebRTCDescription(answer, cameraAddress: camera, answering: offer)
        XCTAssertEqual(lines(description.text, "a=candidate:").map { $0.split(separator: " ")[5] }, ["5001", "5002", "5006"],
                       "the first two listed of the highest priority for component 1, the one of component 2; no TCP, "
                       + "no other host, none at session level (webrtcbin reads only a section's)")
        XCTAssertEqual(description.candidates, [camera, camera, camera])
    }

    func testFormatsNotOfferedAndTheXGoogleDuplicateFmtpAreDropped() throws {
        // A Creality K2's answer: AV1 first (never offered), and a second fmtp for H.264.
        let answer = Self.sdp(video: "35 102", [
            "a=rtpmap:35 AV1/90000", "a=fmtp:35 level-idx=5;profile=0;tier=0", "a=rtcp-fb:35 nack",
            "a=rtpmap:102 H264/90000", "a=fmtp:102 packetization-mode=1;profile-level-id=42e01f",
            "a=fmtp:102 x-google-max-bitrate=2048;x-google-min-bitrate=128", "a=rtcp-fb:102 nack pli",
            "a=candidate:1 1 udp 2130706431 \(camera) 40000 typ host",
        ])
        let description = try WebRTCDescription(answer, cameraAddress: camera, answering: offer)
        XCTAssertEqual(lines(description.text, "m=video"), ["m=video 9 UDP/TLS/RTP/SAVPF 102"])
        XCTAssertEqual(lines(description.text, "a=fmtp:"), ["a=fmtp:102 packetization-mode=1;profile-level-id=42e01f"])
        XCTAssertEqual(lines(description.text, "a=rtpmap:"), ["a=rtpmap:102 H264/90000"])
        XCTAssertEqual(lines(description.text, "a=rtcp-fb:"), ["a=rtcp-fb:102 nack pli"])
        XCTAssertEqual(description.codec, AV_CODEC_ID_H264)
        // The x-google line first: it goes, the real one stays.
        let reordered = Self.sdp(video: "102", [
            "a=rtpmap:102 H264/90000", "a=fmtp:102 x-google-max-bitrate=2048",
            "a=fmtp:102 packetization-mode=1", "a=candidate:1 1 udp 2130706431 \(camera) 40000 typ host",
        ])
        XCTAssertEqual(lines(try WebRTCDescription(reordered, cameraAddress: camera, answering: offer).text, "a=fmtp:"),
                       ["a=fmtp:102 packetization-mode=1"])
    }

    func testTheFirstDecodableFormatGivesTheCodec() throws {
        // A camera's own offer (camera-streamer): nothing is dropped, VP9 is passed over.
        let cameraOffer = Self.sdp(video: "98 96 102", ["a=rtpmap:98 VP9/90000", "a=rtpmap:96 vp8/90000", "a=rtpmap:102 H264/90000",
                                                      "a=candidate:1 1 udp 1 \(camera) 40000 typ host"])
        let description = try WebRTCDescription(cameraOffer, cameraAddress: camera)
        XCTAssertEqual(description.codec, AV_CODEC_ID_VP8)
        XCTAssertEqual(lines(description.text, "m=video"), ["m=video 9 UDP/TLS/RTP/SAVPF 98 96 102"])
        XCTAssertEqual(WebRTCDescription.firstCodec(of: description.text), nil, "VP9 comes first")
        XCTAssertEqual(WebRTCDescription.firstCodec(of: offer), AV_CODEC_ID_H264)
        XCTAssertEqual(WebRTCDescription.candidateAddresses(of: description.text), camera)
    }

    func testRefusalsSayWhatIsWrong() {
        let candidate = "a=candidate:1 1 udp 1 \(camera) 40000 typ host"
        XCTAssertEqual(failure("<html>not a session description</html>"),
                       .protocolError("the camera's WebRTC answer is not a session description"))
        XCTAssertEqual(failure("v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"), .protocolError("the camera's WebRTC answer has no video"))
        XCTAssertEqual(failure(Self.sdp(video: "98 35", ["a=rtpmap:98 VP9/90000", "a=rtpmap:35 AV1/90000", candidate])),
                       .unsupportedCodec("VP9, AV1"))
        XCTAssertEqual(failure(Self.sdp(video: "98", ["a=rtpmap:98 VP9/90000", candidate]), answering: offer),
                       .unsupportedCodec("no video codec Layerwatch was offered"))
        XCTAssertEqual(failure(Self.sdp(video: "102", ["a=rtpmap:102 H264/90000", "a=candidate:1 1 udp 1 10.0.0.1 40000 typ host"])),
                       .protocolError("the camera's WebRTC answer has no ICE candidate at its own address \(camera)"))
    }
}
