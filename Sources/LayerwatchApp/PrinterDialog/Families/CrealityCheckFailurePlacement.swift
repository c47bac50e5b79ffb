import PrinterKit
import StatusKit
import StreamKit

/// Where Test Connection of a Creality printer says what failed, in the family's own terms: its
/// status port on the address, its own camera's port on the Model row (`CrealityConnectionTest`).
extension CheckFailurePlacement {
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
        case .authRejected, .credentialsRejected, .missingSerial:
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
}
