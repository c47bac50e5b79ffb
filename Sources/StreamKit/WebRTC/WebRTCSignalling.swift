import Foundation

/// How a WebRTC camera is asked for its stream, as go2rtc names them in `webrtc:` URLs: the HTTP
/// exchange that trades Layerwatch's session description for the camera's. Kept apart from the
/// peer so each style reads as its few requests.
public enum WebRTCSignalling: String, Sendable, CaseIterable {
    /// WHEP (RFC 9725; MediaMTX): POST an `application/sdp` offer → 201, the answer, `Location`;
    /// DELETE the Location to end.
    case whep
    /// go2rtc's `/api/webrtc?src=NAME`: POST the raw SDP offer → the raw answer.
    case go2rtc
    /// camera-streamer (crowsnest, Mainsail's "webrtc-camerastreamer"): the camera offers.
    /// POST `{"type":"request"}` → `{"type":"offer","sdp","id"}`; POST `{"type":"answer","id","sdp"}`.
    case cameraStreamer = "camera-streamer"
    /// Creality K2/Hi (`:8000/call/webrtc_local`): POST base64 of `{"type":"offer","sdp"}` as
    /// `plain/text` → base64 of `{"type":"answer","sdp"}`; no trickle, so the offer holds the candidates.
    case creality

    /// The style a `webrtc:` URL asks for: its `#format=…`, else go2rtc's API by its path, else WHEP.
    /// Nil for a format Layerwatch does not speak.
    init?(url: URL) {
        let fragment = URLComponents(url: url, resolvingAgainstBaseURL: false)?.fragment ?? ""
        let format = fragment.split(separator: "&").first { $0.hasPrefix("format=") }.map { String($0.dropFirst("format=".count)) }
        switch format?.lowercased() {
        case nil, "": self = url.path.hasSuffix("/api/webrtc") ? .go2rtc : .whep
        case let name?: self.init(rawValue: name)
        }
    }
}
