import PrinterKit
import StatusKit
import StreamKit

/// Where in the printer dialog a failed check says what went wrong, and in what words: a rejected
/// access code, API key or password on the key's field, an address nothing answers at on the host
/// field, a wrong port on the port field, a camera's failure on its URL (a Creality printer's own
/// camera's on its Model row). The sentence stands under that field, so it names neither "Status"
/// nor the field. A rejected code, key or login keeps the form from being saved until it changes.
struct CheckFailurePlacement: Equatable {
    let field: PrinterDraft.Field
    let message: String
    /// The printer or camera said no to the code, key or login: saving it would only fail again.
    var isRejection = false

    /// A failed "Find Cameras" (the printer's or go2rtc's API) or status connection of "Test
    /// Connection"; `hasPort` when the form shows a port field.
    init(_ failure: StatusFailure, hasPort: Bool) {
        switch failure {
        case .authRejected, .loginRequired:
            self.init(.accessCode, tr("Rejected — check it and try again."), isRejection: true)
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

    /// A Creality printer's status websocket, at `port`, failing Test Connection: on the address,
    /// in its own terms (its status port).
    init(crealityStatus failure: StatusFailure, port: Int) {
        switch failure {
        case .refused:
            self.init(.host, String(format: tr("Nothing answers on port %ld, where a Creality printer reports its status — check the address and that the printer is on."), port))
        case .timeout:
            self.init(.host, String(format: tr("No answer in time on port %ld, where a Creality printer reports its status — check the address and that the printer is on."), port))
        case .protocolError(let detail):
            self.init(.host, String(format: tr("Something answers here, but not as a Creality printer's status (%@) — check the address."), detail))
        case .notFound:
            self.init(.host, tr("Something answers here, but not as a Creality printer's status — check the address."))
        case .loginRequired:
            self.init(.host, tr("Something answers here and asks for a login, which a Creality printer's status connection does not have — check the address."))
        case .authRejected, .missingSerial:
            self.init(.host, failure.userMessage)
        }
    }

    /// A Creality printer's own camera failing Test Connection (its status answered, so the address
    /// is right): on the Model row, whose family says where the camera is.
    init(_ failure: StreamProbe.Report.Failure, crealityCamera family: CrealityFamily) {
        switch (failure.kind, family) {
        case ("refused", .k1):
            self.init(.model, String(format: tr("Nothing answers on port %ld, where this model's camera streams — check the model. A K1 SE or an Ender-3 V3 streams only with Creality's camera fitted."), family.cameraPort))
        case ("refused", .k2):
            self.init(.model, String(format: tr("Nothing answers on port %ld, where this model's WebRTC camera streams — check the model."), family.cameraPort))
        case ("timeout", _):
            self.init(.model, tr("The camera did not answer in time — check the model, and that the printer is on the same network."))
        default:
            self.init(.model, failure.message)
        }
    }

    private init(_ field: PrinterDraft.Field, _ message: String, isRejection: Bool = false) {
        self.field = field
        self.message = message
        self.isRejection = isRejection
    }
}
