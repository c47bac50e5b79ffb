import PrinterKit
import StatusKit
import StreamKit

/// Where in the printer dialog a failed check says what went wrong, and in what words: a rejected
/// access code, API key or password on the key's field, an address nothing answers at on the host
/// field, a wrong port on the port field, a camera's failure on its URL (a family may place its
/// own in its own terms: Creality's, in its Families file). The sentence stands under that field,
/// so it names neither "Status" nor the field. A rejected code, key or login keeps the form from
/// being saved until it changes.
struct CheckFailurePlacement: Equatable {
    let field: PrinterDraft.Field
    let message: String
    /// The printer or camera said no to the code, key or login: saving it would only fail again.
    var isRejection = false

    /// A failed "Find Cameras" (the printer's or go2rtc's API) or status connection of "Test
    /// Connection"; `hasPort` when the form shows a port field, `secret` what its secret is called
    /// (a refused printer's password is said to be wrong).
    init(_ failure: StatusFailure, hasPort: Bool, secret: SecretsPlace.Noun? = nil) {
        switch failure {
        case .authRejected where secret == .password:
            self.init(.accessCode, Self.wrongPassword, isRejection: true)
        case .authRejected, .loginRequired:
            self.init(.accessCode, tr("Rejected — check it and try again."), isRejection: true)
        case .credentialsRejected(_, let field):
            self.init(.accessCode, field, isRejection: true)
        case .refused:
            self.init(.host, tr("Nothing answers at this address and port — check both."))
        case .timeout:
            self.init(.host, tr("No answer in time — check the address and that the computer is on."))
        case .notFound:
            self.init(hasPort ? .apiPort : .host, tr("No printer API here — check the port."))
        case .missingSerial:
            self.init(.serial, failure.userMessage)
        case .protocolError(let detail):
            self.init(.host, String(format: tr("The answer made no sense (%@) — check the address and port."), detail))
        }
    }

    /// A failed "Test Connection" of a camera: a printer's own camera (`byURL` false) fails on the
    /// access code or the address; a camera by URL on its URL.
    init?(_ failure: StreamProbe.Report.Failure, byURL: Bool) {
        switch (failure.kind, byURL) {
        case ("authRejected", false): self.init(.accessCode, failure.message, isRejection: true)
        case ("refused", false), ("timeout", false): self.init(.host, failure.message)
        case (_, false): return nil
        case ("authRejected", true): self.init(.url, tr("The camera rejected the username or password in this URL."), isRejection: true)
        case ("refused", true): self.init(.url, tr("Nothing answers at this URL's address and port — check them."))
        case ("timeout", true): self.init(.url, tr("The camera did not answer in time — check that it is on and on the same network."))
        case (_, true): self.init(.url, failure.message)
        }
    }

    /// Under a printer's password the printer refused.
    static var wrongPassword: String { tr("The password is wrong — check it on the printer's screen and try again.") }

    /// The Test Connection row of a failed status connection: the failure's own sentence, or, for
    /// a printer's password refused, that the password is wrong.
    static func statusRow(_ failure: StatusFailure, secret: SecretsPlace.Noun?) -> String {
        failure == .authRejected && secret == .password ? tr("Status: the printer refused the password.") : failure.userMessage
    }

    /// `message` said under `field` (a family's own placements are made with it).
    init(_ field: PrinterDraft.Field, _ message: String, isRejection: Bool = false) {
        self.field = field
        self.message = message
        self.isRejection = isRejection
    }
}
