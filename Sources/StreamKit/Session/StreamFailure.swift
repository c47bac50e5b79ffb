import Foundation

/// Why a stream could not be opened or kept going, sorted into the few kinds a user can act on.
/// Every case carries a message that says what to do, never a raw FFmpeg error or a secret.
public enum StreamFailure: Error, Equatable, Sendable {
    /// 401/403, or the printer closed the connection right after the credentials were sent.
    case authRejected
    /// Nothing listens on that port (connection refused).
    case refused
    /// No answer in time: host down or unreachable, or it accepted and stayed silent.
    case timeout
    /// The server answered but has no such stream or file (404, missing path).
    case notFound
    /// The stream uses a codec this FFmpeg build cannot decode.
    case unsupportedCodec(String)
    /// The source ended (file without loop, server finished the stream).
    case endOfStream
    /// Anything else: the server spoke but what it said made no sense. Detail is already redacted.
    case protocolError(String)
    /// Pictures arrived but none could be decoded (corrupt, or larger than Layerwatch decodes).
    case undecodablePicture(String)
    /// An https:// camera's certificate failed verification (unknown authority, another name).
    case untrustedCertificate(String)
    /// A WebRTC camera answered, but ICE found no path for its media (UDP blocked between the two,
    /// or candidates that lead nowhere).
    case mediaUnreachable
    /// An http(s) camera answered HTTP 405 to a GET, as a WebRTC (WHEP) endpoint does: the URL
    /// wants `webrtc:` before it (`WHEPAddress`).
    case webRTCAddress

    /// A sentence for the user that says what went wrong and what to try, in `terms` when the
    /// camera's printer family gave some (a Bambu printer's camera speaks of its access code and LAN
    /// Only Liveview); else for any camera, of its URL's address, user name and password.
    public func userMessage(in terms: CameraTerms?) -> String {
        switch (self, terms) {
        case (.authRejected, let terms?): return terms.authRejected
        case (.refused, let terms?): return terms.refused
        case (.timeout, let terms?): return terms.timeout
        default: return userMessage
        }
    }

    /// A sentence for the user that says what went wrong and what to try, for any camera.
    public var userMessage: String {
        switch self {
        case .authRejected:
            return tr("The camera refused the user name or password — check them in its URL.")
        case .refused:
            return tr("The camera refused the connection — check the address and port.")
        case .timeout:
            return tr("The camera did not answer in time — check that it is on and on the same network.")
        case .notFound:
            return tr("The camera stream was not found — check the path in the URL.")
        case .unsupportedCodec(let codec):
            return String(format: tr("This camera sends %@ video, which Layerwatch cannot decode."), codec)
        case .endOfStream:
            return tr("The stream ended.")
        case .protocolError(let detail):
            return String(format: tr("The camera sent something Layerwatch could not understand (%@)."), detail)
        case .undecodablePicture(let detail):
            return String(format: tr("The camera sends a picture Layerwatch cannot decode: %@."), detail)
        case .untrustedCertificate(let detail):
            return String(format: tr("The camera's certificate is not trusted: %@. Layerwatch did not send it your password."), detail)
        case .mediaUnreachable:
            return tr("The camera answered, but its video cannot reach this computer — check that UDP between the two is not blocked.")
        case .webRTCAddress:
            return tr("This looks like a WebRTC (WHEP) address — use webrtc:http://…")
        }
    }

    /// A short stable name, for JSON output and logs.
    public var kind: String {
        switch self {
        case .authRejected: return "authRejected"
        case .refused: return "refused"
        case .timeout: return "timeout"
        case .notFound: return "notFound"
        case .unsupportedCodec: return "unsupportedCodec"
        case .endOfStream: return "endOfStream"
        case .protocolError: return "protocol"
        case .undecodablePicture: return "undecodable"
        case .untrustedCertificate: return "untrustedCertificate"
        case .mediaUnreachable: return "mediaUnreachable"
        case .webRTCAddress: return "webRTCAddress"
        }
    }

    /// Whether reconnecting on its own can help. A wrong code never heals by retrying, and hammering a
    /// printer with bad credentials is what we must not do; a missing path or codec won't appear either,
    /// nor a trusted certificate. Undecodable pictures back off like protocol errors (a camera may
    /// be reconfigured).
    public var isRetryable: Bool {
        switch self {
        case .refused, .timeout, .endOfStream, .protocolError, .undecodablePicture, .mediaUnreachable: return true
        case .authRejected, .notFound, .unsupportedCodec, .untrustedCertificate, .webRTCAddress: return false
        }
    }
}
