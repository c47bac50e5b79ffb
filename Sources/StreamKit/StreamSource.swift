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

    /// The URL handed to FFmpeg, secrets included. Never print it: use `description`.
    var ffmpegURL: String {
        switch self {
        case .rtsp(let url), .http(let url): return url.absoluteString
        case .file(let path, _): return path
        }
    }

    /// The access code or password this source carries, if any, so it can be scrubbed from text.
    public var secret: String? {
        switch self {
        case .rtsp(let url), .http(let url):
            guard let password = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPassword,
                  !password.isEmpty else { return nil }
            return password.removingPercentEncoding ?? password
        case .file: return nil
        }
    }

    /// True for sources that travel over the network (and so can time out, be refused, reconnect).
    public var isNetwork: Bool {
        if case .file = self { return false }
        return true
    }
}

extension StreamSource: CustomStringConvertible {
    /// The source as a user may see it: the access code replaced by `***`.
    public var description: String {
        Redactor(secrets: [secret].compactMap { $0 }).redact(ffmpegURL)
    }
}
