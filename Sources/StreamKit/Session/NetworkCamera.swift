import Foundation
import Glibc

/// Whether a camera URL that came from somewhere else — a Klipper or OctoPrint host's camera list,
/// a printer's own settings — is one Layerwatch may open. A host may list anything: `file:///etc/passwd`,
/// `data:`, FFmpeg's `concat:` or `subfile:`, a cloud metadata address. Only network cameras pass
/// (RTSP, RTSPS, HTTP, HTTPS, and WebRTC signalling over HTTP(S)), and not on a link-local address (169.254.0.0/16, fe80::/10, where
/// cloud metadata services and nothing a printer streams from live).
public enum NetworkCamera {
    /// Why `text` may not be opened, in words for the camera list; nil when it may.
    public static func refusal(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let scheme = URLComponents(string: signalling(trimmed))?.scheme?.lowercased(),
              ["rtsp", "rtsps", "http", "https"].contains(scheme),
              let source = try? StreamSource.parse(trimmed) else {
            return tr("not a network camera")
        }
        switch source {
        case .rtsp(let url), .http(let url), .webrtc(let url, _):
            guard let host = URLOrigin(url)?.host, !isLinkLocal(host) else { return tr("a link-local address, where no camera streams") }
            return nil
        case .file, .bambuJPEG:
            return tr("not a network camera")
        }
    }

    /// The host of `text`, lowercased and without IPv6 brackets; nil when it has none.
    public static func host(of text: String) -> String? {
        URLOrigin(signalling(text))?.host
    }

    /// Where `text` connects first (a `webrtc:` URL's signalling server): its host, lowercased and
    /// without IPv6 brackets, and its port (the scheme's usual one when it names none); nil when it has none.
    public static func address(of text: String) -> (host: String, port: Int)? {
        URLOrigin(signalling(text)).map { ($0.host, $0.port) }
    }

    /// A `webrtc:` URL's signalling URL (what its host and scheme are read from); any other text as it is.
    private static func signalling(_ text: String) -> String {
        text.lowercased().hasPrefix("webrtc:") ? String(text.dropFirst("webrtc:".count)) : text
    }

    /// Whether `address` (without brackets) is in 169.254.0.0/16 or fe80::/10.
    private static func isLinkLocal(_ address: String) -> Bool {
        let host = String(address.prefix { $0 != "%" })  // an IPv6 zone (`%25eth0`) names no other address
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            let address = UInt32(bigEndian: v4.s_addr)
            return address >> 16 == 0xA9FE  // 169.254.0.0/16
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { $0[0] == 0xFE && $0[1] & 0xC0 == 0x80 }  // fe80::/10
        }
        return false
    }
}
