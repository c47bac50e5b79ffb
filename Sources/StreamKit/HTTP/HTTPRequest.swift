import CFFmpeg
import Foundation

/// The requests `HTTPFetch` sends: a GET, a POST with a JSON body (a printer command), or another
/// method with a typed body (WebRTC signalling: an SDP offer, a WHEP session's DELETE), in HTTP/1.1
/// with `Host`, `Connection: close` (so a body without a length ends with the connection), the
/// caller's headers and Basic auth from the typed URL's user info, sent at once rather than after a
/// challenge. Nothing a caller passes may break a line: a CR or LF
/// in a key would add headers of its own.
enum HTTPRequest {
    /// The `Authorization` header for the user and password `url` carries (percent-decoded); nil
    /// when it carries none.
    static func basicAuthorization(_ url: URL) -> (String, String)? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              components.user != nil || components.password != nil else { return nil }
        let pair = "\(components.user ?? ""):\(components.password ?? "")"
        return ("Authorization", "Basic \(Data(pair.utf8).base64EncodedString())")
    }

    /// A request's body and its media type.
    struct Body {
        let type: String
        let data: Data

        static func json(_ data: Data) -> Body { Body(type: "application/json", data: data) }
    }

    /// The request target of `url` (its path and query, as sent): what a Digest answer hashes in.
    static func target(of url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    /// The request's bytes for `url` at `origin` (the URL's own user info is never part of them):
    /// `method` (a GET, or a POST when there is a body, by default) with `body`.
    static func make(_ url: URL, origin: URLOrigin, headers: [(String, String)], method: String? = nil,
                     body: Body? = nil) throws(FFmpegError) -> [UInt8] {
        let verb = method ?? (body == nil ? "GET" : "POST")
        let content = body.map { (type: $0.type, length: Int64($0.data.count)) }
        return try head(url, origin: origin, headers: headers, method: verb, content: content) + (body.map { Array($0.data) } ?? [])
    }

    /// The request's head alone, for a body of `content`'s type and length sent after it (a file
    /// streamed from disk, `HTTPUpload`), or none.
    static func head(_ url: URL, origin: URLOrigin, headers: [(String, String)], method verb: String,
                     content: (type: String, length: Int64)?) throws(FFmpegError) -> [UInt8] {
        guard let target = target(of: url) else { throw FFmpegError(code: lw_averror(EINVAL), stage: .open) }
        let content = content.map { [("Content-Type", $0.type), ("Content-Length", String($0.length))] }
            ?? (verb == "PUT" ? [("Content-Length", "0")] : [])  // a PUT without a body still says so
        let accept = content.first?.1 == "application/sdp" ? "application/sdp" : "application/json"
        let fields = [("Host", origin.authority), ("User-Agent", "Layerwatch"), ("Accept", accept),
                      ("Connection", "close")] + content + headers
        let breaksALine = { (text: String) in text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
        guard !target.contains(" "), !breaksALine(target), !fields.contains(where: { breaksALine($0.0) || breaksALine($0.1) }) else {
            throw FFmpegError(code: lw_averror(EINVAL), stage: .open)
        }
        let text = "\(verb) \(target) HTTP/1.1\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        return Array(text.utf8)
    }
}
