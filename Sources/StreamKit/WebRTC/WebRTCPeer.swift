import CFFmpeg
import CWebRTC
import Foundation

/// Layerwatch's side of one WebRTC connection: GStreamer's webrtcbin (through the CWebRTC glue),
/// receive-only, ICE on host candidates of one local address, its decrypted RTP depayloaded into
/// H.264 access units or VP8 frames. Every wait is bound to an `Interrupting` (the session's gate).
final class WebRTCPeer {
    /// The jitter buffer webrtcbin's rtpbin keeps, in ms. 50 ms still puts a LAN's reordered or
    /// NACK-retransmitted packets back in order (a LAN round trip is a few ms, a camera's frame
    /// interval 33–66 ms), while the default 200 ms would add 150 ms to every picture.
    static let jitterBufferMilliseconds: UInt32 = 50

    private let peer: OpaquePointer

    /// A peer gathering on `localAddress` only (the address this host reaches the camera from).
    init(localAddress: String) throws(FFmpegError) {
        var error: UnsafeMutablePointer<CChar>?
        guard let made = lw_webrtc_new(localAddress, Self.jitterBufferMilliseconds, &error) else {
            // GStreamer or its WebRTC plugins are missing: no retry can help, as for a missing decoder.
            let detail = Self.taking(error) ?? "WebRTC"
            throw FFmpegError(code: lw_averror_decoder_not_found(), stage: .open, detail: detail, failure: .unsupportedCodec(detail))
        }
        peer = made
    }

    deinit {
        lw_webrtc_free(peer)
    }

    /// Layerwatch's offer, candidates included.
    func makeOffer(interrupting: Interrupting) throws(FFmpegError) -> String {
        try producingSDP(interrupting) { stop, opaque, sdp, error in lw_webrtc_make_offer(peer, stop, opaque, sdp, error) }
    }

    /// Sets the camera's (checked) answer.
    func take(answer: String) throws(FFmpegError) {
        var error: UnsafeMutablePointer<CChar>?
        let result = lw_webrtc_take_answer(peer, answer, &error)
        guard result == Int32(LW_WEBRTC_OK) else { throw Self.failure(error) }
    }

    /// Layerwatch's answer to the camera's (checked) offer, candidates included.
    func answer(offer: String, interrupting: Interrupting) throws(FFmpegError) -> String {
        try producingSDP(interrupting) { stop, opaque, sdp, error in lw_webrtc_answer_offer(peer, offer, stop, opaque, sdp, error) }
    }

    /// What `pull` found.
    enum Pulled {
        /// `microseconds`: the unit's time on the pipeline's clock, laid out from the camera's RTP
        /// timestamps by the jitter buffer (nil when it has none).
        case unit([UInt8], keyframe: Bool, microseconds: Int64?)
        case nothing
        case iceFailed
    }

    /// The next access unit, waiting up to `milliseconds` for it.
    func pull(milliseconds: Int32) throws(FFmpegError) -> Pulled {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        var pts: Int64 = 0
        var codec: Int32 = 0
        var keyframe: Int32 = 0
        var error: UnsafeMutablePointer<CChar>?
        switch lw_webrtc_pull(peer, milliseconds, &data, &size, &pts, &codec, &keyframe, &error) {
        case Int32(LW_WEBRTC_OK):
            defer { lw_webrtc_free_text(UnsafeMutableRawPointer(data)?.assumingMemoryBound(to: CChar.self)) }
            return .unit(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [], keyframe: keyframe != 0,
                         microseconds: pts >= 0 ? pts : nil)
        case Int32(LW_WEBRTC_ICE_FAILED): return .iceFailed
        case Int32(LW_WEBRTC_NOTHING): return .nothing
        default: throw Self.failure(error)
        }
    }

    /// Whether ICE has found a working pair.
    var iceConnected: Bool { lw_webrtc_ice_connected(peer) != 0 }

    /// The address `host` resolves to, numeric.
    static func resolve(_ host: String) -> String? { taking(lw_webrtc_resolve(host)) }

    /// The address this host sends from to reach `address`.
    static func routeSource(to address: String) -> String? { taking(lw_webrtc_route_source(address)) }

    static func taking(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        guard let text else { return nil }
        defer { lw_webrtc_free_text(text) }
        return String(cString: text)
    }

    private func producingSDP(_ interrupting: Interrupting,
                              _ call: (lw_webrtc_should_stop, UnsafeMutableRawPointer,
                                       UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                       UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32) throws(FFmpegError) -> String {
        var sdp: UnsafeMutablePointer<CChar>?
        var error: UnsafeMutablePointer<CChar>?
        let callback = interrupting.callback
        let result = call(callback.callback!, callback.opaque!, &sdp, &error)
        if result == Int32(LW_WEBRTC_STOPPED) { throw FFmpegError(code: lw_averror_exit(), stage: .open) }
        guard result == Int32(LW_WEBRTC_OK), let text = Self.taking(sdp) else { throw Self.failure(error) }
        return text
    }

    /// The glue's message as a protocol error.
    private static func failure(_ error: UnsafeMutablePointer<CChar>?) -> FFmpegError {
        .protocolViolation(taking(error) ?? "WebRTC failed", stage: .open)
    }
}
