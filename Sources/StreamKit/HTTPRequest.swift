import CFFmpeg
import Foundation

/// The request `HTTPFetch` sends (a GET, or a POST of JSON): HTTP/1.1 with `Host`, `Connection: close`
/// (so a body without a length ends with the connection), the caller's headers and Basic auth from
/// the typed URL's user info, sent at once rather than after a challenge. Nothing a caller passes
/// may break a line: a CR or LF in a key would add headers of its own.
enum HTTPRequest {
    /// The `Authorization` header for the user and password `url` carries (percent-decoded); nil
    /// when it carries none.
    static func basicAuthorization(_ url: URL) -> (String, String)? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              components.user != nil || components.password != nil else { return nil }
        let pair = "\(components.user ?? ""):\(components.password ?? "")"
        return ("Authorization", "Basic \(Data(pair.utf8).base64EncodedString())")
    }

    /// The request's bytes for `url` at `origin` (the URL's own user info is never part of them): a
    /// GET, or with `json` a POST of that body.
    static func make(_ url: URL, origin: URLOrigin, headers: [(String, String)], json: Data? = nil) throws(FFmpegError) -> [UInt8] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw FFmpegError(code: lw_averror(EINVAL), stage: .open)
        }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let target = path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
        let body = json.map { [("Content-Type", "application/json"), ("Content-Length", String($0.count))] } ?? []
        let fields = [("Host", origin.authority), ("User-Agent", "Layerwatch"), ("Accept", "application/json"),
                      ("Connection", "close")] + body + headers
        let breaksALine = { (text: String) in text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
        guard !target.contains(" "), !breaksALine(target), !fields.contains(where: { breaksALine($0.0) || breaksALine($0.1) }) else {
            throw FFmpegError(code: lw_averror(EINVAL), stage: .open)
        }
        let text = "\(json == nil ? "GET" : "POST") \(target) HTTP/1.1\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        return Array(text.utf8) + (json.map(Array.init) ?? [])
    }
}
