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
    /// The URL the context had when last looked at (a C copy, compared without allocating).
    private var lastURL: UnsafeMutablePointer<CChar>?
    private var redirects = 0
    /// Why the guard stopped FFmpeg, for the user; nil while it has not.
    private(set) var refusal: String?

    init(source: StreamSource, gate: InterruptGate) {
        self.gate = gate
        typed = URLOrigin(source.ffmpegURL)
        let components = URLComponents(string: source.ffmpegURL)
        carriesCredentials = components?.percentEncodedUser != nil || components?.percentEncodedPassword != nil
        lastURL = strdup(source.ffmpegURL)
    }

    deinit {
        free(lastURL)
    }

    /// The context whose URL is watched; set before `avformat_open_input`, cleared when it returns.
    func watch(_ context: UnsafeMutablePointer<AVFormatContext>?) {
        self.context = context
    }

    func shouldInterrupt() -> Bool {
        if gate.shouldInterrupt() { return true }
        if refusal != nil { return true }
        guard let url = context?.pointee.url, let lastURL, strcmp(url, lastURL) != 0 else { return false }
        free(lastURL)
        self.lastURL = strdup(url)
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
