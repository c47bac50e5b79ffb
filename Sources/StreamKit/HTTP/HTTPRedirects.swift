import CFFmpeg
import Foundation

/// Where `HTTPFetch` lets a 3xx take a request. The caller's headers (an API key) and the typed
/// URL's user info (a password) belong to the typed scheme, host and port: a redirect keeping those
/// is followed with them, one elsewhere is refused when the request carries either (FFmpeg's http
/// protocol sent them along), and followed without them when it carries neither, as a browser
/// would (a keyless Moonraker behind a proxy that sends http to https keeps working). Only http and
/// https are followed, at most `RedirectGuard.maximumRedirects` times, a redirect to the same URL
/// included.
struct HTTPRedirects {
    /// What a request carries that must not leave its origin, for the refusal's words.
    enum Secret {
        case apiKey, password
    }

    /// The statuses followed: each repeats a GET as a GET at the new address.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    private let origin: URLOrigin?
    private let secret: Secret?
    private var followed = 0

    init(from url: URL, secret: Secret?) {
        origin = URLOrigin(url)
        self.secret = secret
    }

    /// Where `location` (a Location header, resolved against `current`) sends the request: the URL
    /// without user info or fragment. The refusals quote the peer, so they go to the classifier,
    /// which scrubs secrets from them.
    mutating func follow(_ location: String?, from current: URL) throws(FFmpegError) -> URL {
        guard let location, let resolved = URL(string: location, relativeTo: current)?.absoluteURL,
              var components = URLComponents(url: resolved, resolvingAgainstBaseURL: true) else {
            throw Self.refusal(tr("the server redirected Layerwatch to an address it cannot fetch"))
        }
        components.user = nil
        components.password = nil
        components.fragment = nil
        guard let target = components.url, let targetOrigin = URLOrigin(target), targetOrigin.isWeb else {
            throw Self.refusal(tr("the server redirected Layerwatch to an address it cannot fetch"))
        }
        if let secret, targetOrigin != origin {
            let words = secret == .apiKey
                ? tr("the printer redirected Layerwatch to another address (%@), which would have received your API key: type that address if you trust it")
                : tr("the server redirected Layerwatch to another address (%@), which would have received your password: type that address if you trust it")
            throw Self.refusal(String(format: words, targetOrigin.displayName))
        }
        followed += 1
        guard followed <= RedirectGuard.maximumRedirects else {
            throw Self.refusal(String(format: tr("the server redirected Layerwatch more than %ld times"), RedirectGuard.maximumRedirects))
        }
        return target
    }

    private static func refusal(_ detail: String) -> FFmpegError {
        FFmpegError(code: lw_averror_invaliddata(), stage: .open, detail: detail)
    }
}
