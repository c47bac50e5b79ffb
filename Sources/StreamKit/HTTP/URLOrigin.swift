import Foundation

/// Scheme, host and port of a URL: the part a redirect must keep for credentials to follow it
/// (`RedirectGuard` for RTSP, `HTTPRedirects` for the status APIs), and where `HTTPConnection`
/// connects. Kept apart so both guards compare addresses by one rule.
struct URLOrigin: Equatable {
    /// Lowercased.
    let scheme: String
    /// Lowercased, without IPv6 brackets.
    let host: String
    let port: Int

    private static let defaultPorts = ["http": 80, "https": 443, "rtsp": 554, "rtsps": 322]

    /// Nil for a URL without scheme or host, or of a scheme whose default port is unknown and that
    /// names none.
    init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        self.init(components)
    }

    init?(_ text: String) {
        guard let components = URLComponents(string: text) else { return nil }
        self.init(components)
    }

    private init?(_ components: URLComponents) {
        guard let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty,
              let port = components.port ?? Self.defaultPorts[scheme] else { return nil }
        self.scheme = scheme
        self.host = StreamSource.unbracketed(host)
        self.port = port
    }

    /// True for http and https, the schemes `HTTPFetch` speaks.
    var isWeb: Bool { scheme == "http" || scheme == "https" }

    /// What a `Host` header holds: the host (IPv6 in brackets), and the port unless it is the scheme's default.
    var authority: String {
        let host = StreamSource.bracketed(host)
        return port == Self.defaultPorts[scheme] ? host : "\(host):\(port)"
    }

    /// `scheme://host:port` for messages: never any user information, path or query a hostile
    /// Location may carry, and no control character a terminal would act on.
    var displayName: String { TerminalText.safe("\(scheme)://\(StreamSource.bracketed(host)):\(port)") }
}
