import CGtk
import GtkKit
import PrinterKit
import StatusKit
import StreamKit

/// The printer dialog's Creality printer: the Model row (the family, whose camera the printer's own
/// camera is) with the camera in its hint, and Test Connection, which first asks the printer's
/// status websocket what it is — setting the Model row from the answer, and saying so — then tries
/// its cameras.
extension PrinterDialog {
    /// The family the Model row shows.
    var crealityFamily: CrealityFamily {
        get { CrealityFamily.allCases[min(family.selected, CrealityFamily.allCases.count - 1)] }
        set { family.selected = CrealityFamily.allCases.firstIndex(of: newValue) ?? 0 }
    }

    /// The Model row's hint: the chosen family's models and camera, then the choice's own hint.
    func showFamilyHint() {
        let camera = String(format: tr("%@: its camera is %@."), crealityFamily.models, crealityFamily.cameraDescription)
        family.setHint([camera, choice.fields[.model]?.hint].compactMap { $0 }.joined(separator: " "))
    }

    /// Another family chosen: the hint and the own camera's row follow it.
    func familyChanged() {
        showFamilyHint()
        showCamera(at: selectedCamera)
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
