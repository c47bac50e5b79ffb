import CFFmpeg
import Foundation

/// Stands between FFmpeg's RTSP client and the interrupt gate to stop redirects FFmpeg would follow
/// on its own: it follows 301/302 without limit and sends the credentials the user typed to the new
/// address. FFmpeg sets the new address as the context's URL before it connects there, and consults
/// the interrupt callback before any byte goes out; this callback ends the open at that point when
/// the address differs in scheme, host or port from the typed one (and credentials would go with
/// it), or after `maximumRedirects`.
final class RedirectGuard: Interrupting {
    static let maximumRedirects = 3

    private let gate: InterruptGate
    private let typed: URLOrigin?
    private let carriesCredentials: Bool
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// The address of the URL string the context had when last looked at (compared, never read:
    /// FFmpeg may have freed it since). A redirect makes a new string before freeing the old one,
    /// so a new address is a redirect even to the very same URL.
    private var lastURL: UnsafeMutablePointer<CChar>?
    private var redirects = 0
    /// Why the guard stopped FFmpeg, for the user; nil while it has not.
    private(set) var refusal: String?

    init(source: StreamSource, gate: InterruptGate) {
        self.gate = gate
        typed = URLOrigin(source.ffmpegURL)
        let components = URLComponents(string: source.ffmpegURL)
        carriesCredentials = components?.percentEncodedUser != nil || components?.percentEncodedPassword != nil
    }

    /// The context whose URL is watched; set before `avformat_open_input`, cleared when it returns.
    func watch(_ context: UnsafeMutablePointer<AVFormatContext>?) {
        self.context = context
    }

    func shouldInterrupt() -> Bool {
        if gate.shouldInterrupt() { return true }
        if refusal != nil { return true }
        guard let url = context?.pointee.url, url != lastURL else { return false }
        defer { lastURL = url }
        // The first string seen is the one the open began with (avformat_open_input's copy).
        guard lastURL != nil else { return false }
        redirects += 1
        let target = URLOrigin(String(cString: url))
        if carriesCredentials && (target == nil || target != typed) {
            refusal = String(format: tr("the camera redirected Layerwatch to another address (%@), which would have received your password: type that address if you trust it"),
                             target?.displayName ?? tr("an invalid address"))
        } else if redirects > Self.maximumRedirects {
            refusal = String(format: tr("the camera redirected Layerwatch more than %ld times"), Self.maximumRedirects)
        }
        return refusal != nil
    }
}
