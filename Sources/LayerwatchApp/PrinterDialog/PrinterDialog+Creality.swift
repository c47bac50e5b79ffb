import CGtk
import GtkKit
import PrinterKit
import StatusKit
import StreamKit

/// Test Connection of a Creality printer, its choice's steps: it first asks the printer's status
/// websocket what it is — setting the Model row (the family, whose camera the printer's own camera
/// is) from the answer, and saying so — then tries its cameras; its own camera failing is said on
/// the Model row.
struct CrealityConnectionTest: ConnectionTestSteps {
    @MainActor func test(_ printer: Printer, status endpoint: StatusEndpoint, in run: ConnectionTestRun, on dialog: PrinterDialog) {
        dialog.testCreality(printer, host: endpoint.host, port: endpoint.port, in: run)
    }

    func ownCameraFailure(_ failure: StreamProbe.Report.Failure, of printer: Printer) -> CheckFailurePlacement? {
        printer.kind.crealityFamily.map { CheckFailurePlacement(failure, crealityCamera: $0) }
    }
}

extension PrinterDialog {
    /// The family the Model row shows.
    var crealityFamily: CrealityFamily {
        get { chosenVariant.flatMap { CrealityFamily(rawValue: $0.raw) } ?? .k1 }
        set { chooseVariant(newValue.rawValue) }
    }

    /// Test Connection of a Creality printer: its status websocket first, whose answer may set the
    /// Model row, then every camera of the printer as the form then describes it (none when the
    /// status did not answer).
    func testCreality(_ printer: Printer, host: String, port: Int, in run: ConnectionTestRun) {
        crealityCheck.start({ stop throws(StatusFailure) in try CrealityIdentity.read(host: host, port: port, stop: stop) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let failure):
                // Its cameras are where its model has them, which only its status says: not tried.
                for camera in printer.cameras {
                    finish(.camera(camera.id), in: run, passed: false, tr("Not tried until the printer's status answers: it says where the camera is."))
                }
                finish(.status, in: run, passed: false, failure.userMessage, placement: CheckFailurePlacement(crealityStatus: failure, port: port))
            case .success(let identity):
                let detected = CrealityModel.family(of: identity)
                let chosen = crealityFamily, changed = detected.flatMap { $0 == chosen ? nil : $0 }
                if let changed { crealityFamily = changed }
                finish(.status, in: run, passed: true,
                       CrealityTestText.status(model: CrealityModel(identity), webRTC: identity.webrtcSupport == true, chosen: changed))
                testCameras(of: (try? draft.validate().get()) ?? printer, in: run)
            }
        }
    }
}
