import Foundation

/// Where a camera's pictures come from. Parsed once from what the user typed, so every later layer
/// works with a checked value instead of a raw string.
public enum StreamSource: Hashable, Sendable {
    /// RTSP or RTSPS (Bambu X1/P2S/H2 use `rtsps://bblp:CODE@IP:322/streaming/live/1`).
    case rtsp(URL)
    /// HTTP(S): an MJPEG stream (multipart/x-mixed-replace) or a JPEG snapshot URL, told apart by
    /// what the server answers; snapshots are polled every `SessionOptions.snapshotInterval`.
    case http(URL)
    /// A local video file; `loop` replays it forever as if it were a live camera.
    case file(path: String, loop: Bool)
    /// A Bambu P1P/P1S/A1/A1 mini camera: JPEGs over TLS on port 6000, typed as
    /// `bambu-jpeg://HOST[:PORT]?code=ACCESSCODE`. `host` has no IPv6 brackets.
    case bambuJPEG(host: String, port: Int, accessCode: String)
    /// A WebRTC camera, typed in go2rtc's convention `webrtc:http(s)://HOST:PORT/PATH[#format=…]`:
    /// the URL is its signalling endpoint (fragment included), `WebRTCSignalling` says how it speaks.
    /// `fallback` is the same camera's MJPEG (camera-streamer serves `/stream` beside `/webrtc`),
    /// played when WebRTC fails (see `withMJPEGFallback(_:)`); a typed URL has none.
    case webrtc(URL, fallback: URL? = nil)

    /// The URL handed to FFmpeg, secrets included. Never print it: use `description`.
    var ffmpegURL: String {
        switch self {
        case .rtsp(let url), .http(let url): return url.absoluteString
        case .file(let path, _): return path
        case .bambuJPEG(let host, let port, _): return "tls://\(Self.bracketed(host)):\(port)"
        case .webrtc(let url, _): return "webrtc:\(url.absoluteString)"
        }
    }

    /// The access code or passwords this source carries (the URL's password, and the values of
    /// query parameters named like secrets: `pwd=`, `token=` …), so they can be scrubbed from text
    /// (short ones, `auth=1`, only where a URL carries them: see `Redactor.minimumFreeTextSecret`).
    public var secrets: [String] {
        switch self {
        case .rtsp(let url), .http(let url), .webrtc(let url, nil):
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
            let password = components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
            let names = Set(Redactor.secretQueryNames.map { $0.lowercased() })
            let query = (components.queryItems ?? []).filter { names.contains($0.name.lowercased()) }.map(\.value)
            return ([password] + query).compactMap { $0 }.filter { !$0.isEmpty }
        case .webrtc(let url, let fallback?):
            return Array(Set(StreamSource.webrtc(url).secrets + StreamSource.http(fallback).secrets)).sorted()
        case .file: return []
        case .bambuJPEG(_, _, let accessCode): return [accessCode]
        }
    }

    /// The host the user typed (no IPv6 brackets), for messages; nil for files.
    var hostName: String? {
        switch self {
        case .rtsp(let url), .http(let url), .webrtc(let url, _):
            return URLComponents(url: url, resolvingAgainstBaseURL: false)?.host.map(Self.unbracketed)
        case .file: return nil
        case .bambuJPEG(let host, _, _): return host
        }
    }

    /// True for sources that travel over the network (and so can time out, be refused, reconnect).
    public var isNetwork: Bool {
        if case .file = self { return false }
        return true
    }

    /// The shortest connect and stall deadline that suits this source. Bambu P1/A1 cameras send a
    /// JPEG only every 1–2 s, so a shorter deadline would reconnect a healthy printer between two
    /// frames: they get twice the longest normal gap.
    var minimumDeadline: TimeInterval {
        if case .bambuJPEG = self { return 4 }
        return 0
    }

    /// `host` as a URL's authority holds it: IPv6 addresses in brackets.
    public static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// A URL's host as an address: IPv6 brackets taken off (the inverse of `bracketed`).
    public static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

extension StreamSource: CustomStringConvertible {
    /// The source as a user may see it: the access code replaced by `***`; a WebRTC camera's MJPEG
    /// fallback after its URL.
    public var description: String {
        switch self {
        // The code as typed may hold anything (a space ends a query value for `Redactor`): it is left out.
        case .bambuJPEG(let host, let port, _): return "bambu-jpeg://\(Self.bracketed(host)):\(port)?code=\(Redactor.mask)"
        case .webrtc(_, let fallback?):
            return Redactor(secrets: secrets).redact("\(ffmpegURL), MJPEG fallback \(fallback.absoluteString)")
        case .rtsp, .http, .file, .webrtc: return Redactor(secrets: secrets).redact(ffmpegURL)
        }
    }
}
