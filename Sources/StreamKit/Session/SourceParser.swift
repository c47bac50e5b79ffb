import Foundation

/// Why a typed camera address was not accepted; each message tells the user what to fix.
public enum SourceError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case missingScheme(String)
    case unsupportedScheme(String)
    case missingHost
    case missingAccessCode
    /// The port is not valid; it is quoted only when it is short and numeric (an access code typed
    /// where the port goes is never echoed).
    case invalidPort(String?)
    case malformed(String)

    public var description: String {
        switch self {
        case .empty:
            return tr("Enter a camera URL, for example rtsps://bblp:ACCESSCODE@192.168.1.20:322/streaming/live/1.")
        case .missingScheme(let text):
            return String(format: tr("\"%@\" is not a URL: start it with rtsps://, rtsp://, http://, https:// or bambu-jpeg://, or give a file path starting with /."), text)
        case .unsupportedScheme(let scheme):
            return String(format: tr("Layerwatch cannot open %@:// addresses: use rtsps://, rtsp://, http://, https://, webrtc:, bambu-jpeg:// or a file."), scheme)
        case .missingHost:
            return tr("The URL has no printer address: add the host name or IP after ://.")
        case .missingAccessCode:
            return tr("Add the printer's LAN access code, shown on its screen: bambu-jpeg://HOST?code=ACCESSCODE.")
        case .invalidPort(let port):
            let which = port.map { String(format: tr("Port %@ is not valid"), $0) } ?? tr("The port after the host is not valid")
            return String(format: tr("%@: use a number from 1 to 65535 (Bambu RTSPS uses 322, P1/A1 cameras 6000)."), which)
        case .malformed(let detail):
            return String(format: tr("The URL is not valid: %@."), detail)
        }
    }
}

extension StreamSource {
    /// Parses and validates what a user typed: an `rtsp(s)://`, `http(s)://` or
    /// `bambu-jpeg://HOST[:PORT]?code=ACCESSCODE` URL, a `file://` URL, an absolute path, or a
    /// relative path to an existing file, or a `webrtc:http(s)://…[#format=…]` signalling URL. Files
    /// loop when `loopFiles` is set (the demo camera).
    public static func parse(_ text: String, loopFiles: Bool = false) throws(SourceError) -> StreamSource {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .empty }
        if trimmed.lowercased().hasPrefix(webrtcPrefix) { return try webrtc(String(trimmed.dropFirst(webrtcPrefix.count))) }
        if trimmed.hasPrefix("/") { return .file(path: trimmed, loop: loopFiles) }
        if !trimmed.contains("://"), FileManager.default.fileExists(atPath: trimmed) {
            let absolute = URL(fileURLWithPath: trimmed).standardizedFileURL.path
            return .file(path: absolute, loop: loopFiles)
        }
        guard let colon = trimmed.firstIndex(of: ":"), trimmed[colon...].hasPrefix("://") else {
            throw .missingScheme(Self.maskingCredentials(trimmed))
        }
        let scheme = trimmed[..<colon].lowercased()
        switch scheme {
        case "rtsp", "rtsps", "http", "https", "file", "bambu-jpeg": break
        default: throw .unsupportedScheme(scheme)
        }
        if scheme == "file" {
            guard let url = URL(string: trimmed), url.isFileURL, !url.path.isEmpty else {
                throw .malformed(tr("a file URL needs a path, like file:///home/me/print.mp4"))
            }
            return .file(path: url.path, loop: loopFiles)
        }
        let authority = Self.authority(of: trimmed, schemeEnd: trimmed.index(colon, offsetBy: 3))
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        if let portText = Self.portText(of: hostPort) {
            guard let port = Int(portText), (1...65535).contains(port) else {
                let quotable = portText.count <= 5 && portText.allSatisfy(\.isASCII) && portText.allSatisfy(\.isNumber)
                throw .invalidPort(quotable ? portText : nil)
            }
        }
        guard let components = URLComponents(string: trimmed), let url = components.url else {
            throw .malformed(tr("it contains characters a URL cannot hold"))
        }
        guard let host = components.host, !host.isEmpty else { throw .missingHost }
        if scheme == "bambu-jpeg" { return try bambuJPEG(components, host: host) }
        return scheme.hasPrefix("rtsp") ? .rtsp(url) : .http(url)
    }

    private static let webrtcPrefix = "webrtc:"

    /// A WebRTC camera: its signalling URL must be http(s), and its `#format=` one Layerwatch speaks.
    private static func webrtc(_ signalling: String) throws(SourceError) -> StreamSource {
        let scheme = URLComponents(string: signalling)?.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .malformed(tr("a webrtc: URL goes on with the camera's http:// or https:// signalling address"))
        }
        guard case .http(let url) = try parse(signalling) else { throw .missingHost }
        guard WebRTCSignalling(url: url) != nil else {
            throw .malformed(tr("Layerwatch speaks WHEP, go2rtc, #format=camera-streamer and #format=creality WebRTC signalling"))
        }
        return .webrtc(url)
    }

    /// A Bambu P1/A1 camera: the access code comes in the query, the port defaults to 6000.
    private static func bambuJPEG(_ components: URLComponents, host: String) throws(SourceError) -> StreamSource {
        guard components.percentEncodedUser == nil else {
            throw .malformed(tr("give the access code as ?code=ACCESSCODE after the host, not before it"))
        }
        guard components.path.isEmpty || components.path == "/" else {
            throw .malformed(tr("a bambu-jpeg:// URL has no path: bambu-jpeg://HOST[:PORT]?code=ACCESSCODE"))
        }
        guard let code = components.queryItems?.first(where: { $0.name == "code" })?.value, !code.isEmpty else {
            throw .missingAccessCode
        }
        guard code.utf8.count <= BambuJPEGWire.accessCodeCapacity else {
            throw .malformed(String(format: tr("an access code has at most %ld characters"), BambuJPEGWire.accessCodeCapacity))
        }
        return .bambuJPEG(host: unbracketed(host), port: components.port ?? BambuJPEGWire.defaultPort, accessCode: code)
    }

    /// A scheme-less text with anything before an `@` (likely `user:code`) and `code=` values masked.
    private static func maskingCredentials(_ text: String) -> String {
        let masked = text.lastIndex(of: "@").map { Redactor.mask + text[$0...] } ?? text
        return Redactor.scrubQueryCodes(masked)
    }

    /// `user:pass@host:port` of a URL, without path, query or fragment.
    private static func authority(of text: String, schemeEnd: String.Index) -> Substring {
        let rest = text[schemeEnd...]
        return rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    /// The text after the host's port colon, if any (IPv6 brackets respected).
    private static func portText(of hostPort: String) -> String? {
        let afterHost: Substring
        if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
            afterHost = hostPort[hostPort.index(after: close)...]
        } else {
            afterHost = hostPort[...]
        }
        guard let colon = afterHost.firstIndex(of: ":") else { return nil }
        return String(afterHost[afterHost.index(after: colon)...])
    }
}
