import Foundation

/// A WebRTC (WHEP) camera address pasted without `webrtc:` before it: fetched as an HTTP camera it
/// fails with HTTP 405 (a WHEP endpoint takes POST only), so the dialog recognises it by its path
/// (MediaMTX's and others' `…/whep`, go2rtc's `/api/webrtc`) and offers the address that plays.
public enum WHEPAddress {
    /// Whether `text` is an http(s) URL whose path says it is a WHEP endpoint.
    public static func looksLikeWHEP(_ text: String) -> Bool {
        guard fixed(text) != nil, let path = URLComponents(string: trimmed(text))?.path.lowercased() else { return false }
        return path.hasSuffix("/whep") || path.hasSuffix("/whep/") || path.contains("/api/webrtc")
    }

    /// `text` as a WebRTC address (`webrtc:` before it) when it is an http(s) URL; nil otherwise.
    public static func fixed(_ text: String) -> String? {
        let url = trimmed(text)
        guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else { return nil }
        return "webrtc:" + url
    }

    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
