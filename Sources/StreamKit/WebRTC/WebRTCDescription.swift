import CFFmpeg
import CWebRTC
import Foundation

/// A camera's session description (its answer, or its offer), checked and trimmed before webrtcbin
/// sees it: it must be SDP with a video section in a codec FFmpeg decodes here (H.264, VP8), and only
/// a few ICE candidates at the camera's own address, over UDP, are kept — so a hostile or confused
/// camera cannot make Layerwatch send a packet to any other host, nor to many ports of its own.
/// Creality's answers are repaired the same way for everyone: payload formats that were not
/// offered, and a second (x-google) fmtp line for a payload type, are dropped. The SDP is read by
/// GStreamer's parser, the one webrtcbin reads it with (`lw_sdp_check`); the failures are said here.
struct WebRTCDescription {
    /// The most candidates kept for each component, the camera's highest-priority ones: at its one
    /// address a camera needs one, and a second is a spare (a fixed ICE port beside an ephemeral
    /// one, say). Every candidate kept draws connectivity checks (STUN) at each attempt, so a camera
    /// that lists dozens of ports on its own host gets checks at two of them, not at all.
    static let candidatesPerComponent: UInt32 = 2

    /// The description as webrtcbin gets it.
    let text: String
    /// The codec of the video section's first payload format Layerwatch decodes.
    let codec: AVCodecID
    /// The candidate addresses kept (each the camera's).
    let candidates: [String]

    /// Checks `text` from a camera at `cameraAddress` (numeric). `offer`: Layerwatch's offer, when
    /// `text` answers it.
    init(_ text: String, cameraAddress: String, answering offer: String? = nil) throws(FFmpegError) {
        var checked: UnsafeMutablePointer<CChar>?
        var named: UnsafeMutablePointer<CChar>?
        var codec: Int32 = 0
        var kept: UInt32 = 0
        let result = lw_sdp_check(text, cameraAddress, offer, Self.candidatesPerComponent, &checked, &codec, &kept, &named)
        let names = WebRTCPeer.taking(named)
        if result == Int32(LW_SDP_OK), let checked = WebRTCPeer.taking(checked), let decoded = Self.codec(codec) {
            self.text = checked
            self.codec = decoded
            candidates = Array(repeating: cameraAddress, count: Int(kept))
            return
        }
        switch result {
        case Int32(LW_SDP_NO_VIDEO):
            throw Self.violation(tr("the camera's WebRTC answer has no video"))
        case Int32(LW_SDP_NO_CODEC):
            throw FFmpegError(code: lw_averror_decoder_not_found(), stage: .open,
                              failure: .unsupportedCodec(names ?? tr("no video codec Layerwatch was offered")))
        case Int32(LW_SDP_NO_CANDIDATE):
            throw Self.violation(String(format: tr("the camera's WebRTC answer has no ICE candidate at its own address %@"), cameraAddress))
        default:
            throw Self.violation(tr("the camera's WebRTC answer is not a session description"))
        }
    }

    /// The codec of the first payload format of `sdp`'s video section (Layerwatch's own answer).
    static func firstCodec(of sdp: String) -> AVCodecID? {
        codec(lw_sdp_first_codec(sdp))
    }

    /// The candidate addresses of `sdp`, comma-separated.
    static func candidateAddresses(of sdp: String) -> String {
        WebRTCPeer.taking(lw_sdp_candidate_addresses(sdp)) ?? ""
    }

    private static func codec(_ codec: Int32) -> AVCodecID? {
        switch codec {
        case Int32(LW_WEBRTC_H264): return AV_CODEC_ID_H264
        case Int32(LW_WEBRTC_VP8): return AV_CODEC_ID_VP8
        default: return nil
        }
    }

    private static func violation(_ detail: String) -> FFmpegError {
        .protocolViolation(detail, stage: .open)
    }
}
