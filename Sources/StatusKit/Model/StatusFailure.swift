import Foundation
import StreamKit

/// Why a printer's status could not be had, sorted like the camera's failures into what a user can
/// act on. Messages speak of the printer's status, never of its camera, and hold no secret.
public enum StatusFailure: Error, Equatable, Sendable {
    /// The access code or API key was refused.
    case authRejected
    /// The printer refused its credentials, said in its family's own words (a Flashforge printer's
    /// serial number or check code): `status` for the status line and the command line, `field`
    /// under the credential's field of the printer dialog.
    case credentialsRejected(status: String, field: String)
    /// A Creality printer's status websocket, which has no login, answered 401 or 403: whatever
    /// answers wants something Layerwatch cannot give, and no access code would help.
    case loginRequired
    /// Nothing listens on that port.
    case refused
    /// No answer in time, or the connection went silent.
    case timeout
    /// The server answered but has no such API (a wrong port or path).
    case notFound
    /// A Bambu printer whose serial number neither the user nor its certificate gave: its reports
    /// cannot be subscribed to.
    case missingSerial
    /// The peer spoke but made no sense. The detail is already redacted.
    case protocolError(String)

    /// A sentence for the user that says what went wrong and what to try.
    public var userMessage: String {
        switch self {
        case .authRejected:
            return tr("Status: the access code or API key was rejected — check it in the printer's settings.")
        case .credentialsRejected(let status, _):
            return status
        case .loginRequired:
            return tr("Status: the printer refused the connection and asks for a login, which this printer's status connection does not have — check that the address is the printer's own.")
        case .refused:
            return tr("Status: the printer refused the connection — check the address and port.")
        case .timeout:
            return tr("Status: the printer did not answer in time — check that it is on and on the same network.")
        case .notFound:
            return tr("Status: no printer API at that address — check the port.")
        case .missingSerial:
            return tr("Status needs the printer's serial number, and its certificate does not give it — add it in the printer's settings (Settings → Device on the printer).")
        case .protocolError(let detail):
            return String(format: tr("Status: the printer sent something Layerwatch could not understand (%@)."), detail)
        }
    }

    /// A short stable name, for JSON output, logs and exit codes (the same names `probe` uses; a
    /// login asked for is a refused login to them).
    public var kind: String {
        switch self {
        case .authRejected, .credentialsRejected, .loginRequired: return "authRejected"
        case .refused: return "refused"
        case .timeout: return "timeout"
        case .notFound: return "notFound"
        case .missingSerial: return "missingSerial"
        case .protocolError: return "protocol"
        }
    }

    /// Whether trying again on its own can help: never for a refused code or key (no retry storm
    /// against a printer's login) nor for a missing serial or API.
    public var isRetryable: Bool {
        switch self {
        case .refused, .timeout, .protocolError: return true
        case .authRejected, .credentialsRejected, .loginRequired, .notFound, .missingSerial: return false
        }
    }

    /// The status failure for what an HTTP request to the printer's API ended with.
    init(_ failure: StreamFailure) {
        switch failure {
        case .authRejected: self = .authRejected
        case .refused: self = .refused
        case .timeout, .mediaUnreachable: self = .timeout
        case .notFound: self = .notFound
        case .endOfStream: self = .protocolError(tr("the answer ended early"))
        case .protocolError(let detail), .undecodablePicture(let detail), .unsupportedCodec(let detail):
            self = .protocolError(detail)
        case .untrustedCertificate(let detail):
            self = .protocolError(String(format: tr("its certificate is not trusted: %@"), detail))
        case .webRTCAddress:
            self = .protocolError(String(format: tr("it answered with error %@"), "405"))
        }
    }
}
