import PrinterKit
import StatusKit
import StreamKit

/// How Test Connection tries a printer of one "Type" choice, declared by the choice
/// (`PrinterChoice.connectionTest`) so the dialog runs any family's steps without naming it: the
/// status and the cameras, in the order the family needs, and where a failure of its own camera is
/// said. `StatusThenCameras` is every family's unless it declares its own (Creality's asks the
/// printer what it is first).
protocol ConnectionTestSteps: Sendable {
    /// Tries `printer`, whose status is at `endpoint`, finishing each check of `run` in `dialog`.
    @MainActor func test(_ printer: Printer, status endpoint: StatusEndpoint, in run: ConnectionTestRun, on dialog: PrinterDialog)
    /// Where a failure of `printer`'s own camera (it has no URL) is said; nil: in the result row only.
    func ownCameraFailure(_ failure: StreamProbe.Report.Failure, of printer: Printer) -> CheckFailurePlacement?
}

/// The status connection and every camera at once; a failing own camera blames the code or address.
struct StatusThenCameras: ConnectionTestSteps {
    @MainActor func test(_ printer: Printer, status endpoint: StatusEndpoint, in run: ConnectionTestRun, on dialog: PrinterDialog) {
        dialog.testStatus(endpoint, in: run)
        dialog.testCameras(of: printer, in: run)
    }

    func ownCameraFailure(_ failure: StreamProbe.Report.Failure, of printer: Printer) -> CheckFailurePlacement? {
        CheckFailurePlacement(failure, byURL: false)
    }
}

/// The status connection first, then every camera once it answered: a printer whose status
/// connection turns its camera on (an Elegoo printer's) streams only after that.
struct StatusBeforeCameras: ConnectionTestSteps {
    @MainActor func test(_ printer: Printer, status endpoint: StatusEndpoint, in run: ConnectionTestRun, on dialog: PrinterDialog) {
        dialog.testStatus(endpoint, in: run) { [weak dialog] passed in
            guard let dialog else { return }
            guard passed else {
                for camera in printer.cameras {
                    dialog.finish(.camera(camera.id), in: run, passed: false,
                                  tr("Not tried until the printer's status answers: the status connection turns the camera on."))
                }
                return
            }
            dialog.testCameras(of: printer, in: run)
        }
    }

    func ownCameraFailure(_ failure: StreamProbe.Report.Failure, of printer: Printer) -> CheckFailurePlacement? {
        CheckFailurePlacement(failure, byURL: false)
    }
}
