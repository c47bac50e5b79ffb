import CGtk
import GtkKit
import PrinterKit
import StatusKit
import StreamKit

/// Test Connection: the printer as it would be saved, tried at once off the main loop — its status
/// connection (a Bambu printer's MQTT login with its access code and serial, Moonraker's or
/// OctoPrint's status request) and every camera (one probe each, none to a camera already streaming
/// in its tab) — a row each, in the steps its choice declares (`ConnectionTestSteps`: a Creality
/// printer's status first, as its answer may set the Model).
/// What failed is said under the field to fix, and once every check has answered the keyboard goes
/// to the first such field, which the form scrolls to.
extension PrinterDialog {
    func testConnection() {
        splitAddress()
        guard case .success(let printer) = draft.validate() else {
            attemptedSave = true
            showProblems()
            currentTest = nil
            connectionTest.showNote(tr("Fix the fields marked above first."))
            return
        }
        checkProblems = [:]
        showProblems()
        let status = printer.statusEndpoint
        let run = ConnectionTestRun(checks: (status == nil ? [] : [.status]) + printer.cameras.map { .camera($0.id) })
        currentTest = run
        connectionTest.start((status == nil ? [] : [tr("Printer status")]) + printer.cameras.enumerated().map { $1.title(at: $0) })
        if let status {
            choice.connectionTest.test(printer, status: status, in: run, on: self)
        } else {
            testCameras(of: printer, in: run)
        }
    }

    /// Probes each of `printer`'s cameras at once.
    func testCameras(of printer: Printer, in run: ConnectionTestRun) {
        for camera in printer.cameras {
            let check = ConnectionTestRun.Check.camera(camera.id)
            let source: StreamSource
            do { source = try printer.source(of: camera) } catch {
                finish(check, in: run, passed: false, "\(error)")
                continue
            }
            let steps = choice.connectionTest
            let place = { (failure: StreamProbe.Report.Failure) in
                camera.url != nil ? CheckFailurePlacement(failure, byURL: true) : steps.ownCameraFailure(failure, of: printer)
            }
            onTest(source) { [weak self] report in
                if let failure = report?.error {
                    self?.finish(check, in: run, passed: false, failure.message, placement: place(failure))
                } else {
                    self?.finish(check, in: run, passed: true, ConnectionTestText.describe(report))
                }
            }
        }
    }

    /// The check `check` of `run` answered: its row says `text`; once every check has, the
    /// failures are said under their fields and the first one's field is shown.
    func finish(_ check: ConnectionTestRun.Check, in run: ConnectionTestRun, passed: Bool, _ text: String,
                placement: CheckFailurePlacement? = nil) {
        guard currentTest === run, let index = run.checks.firstIndex(of: check) else { return }
        run.placements[index] = placement
        connectionTest.finish(index, passed ? .passed : .failed, text)
        guard connectionTest.isDone else { return }
        // A field says the first failure on it; the URL field shows one camera at a time: its
        // message is placed when that camera is shown.
        var placed: Set<PrinterDraft.Field> = [.url]
        for (_, placement) in run.placements.sorted(by: { $0.key < $1.key }) where placed.insert(placement.field).inserted {
            showCheckProblem(placement)
        }
        if let first = run.firstPlacedFailure { revealFailure(at: first) }
    }

    /// Puts the keyboard on the field the failed check at `index` concerns (a camera's URL with
    /// that camera selected and the failure said under it); the form scrolls to it.
    func revealFailure(at index: Int) {
        guard let run = currentTest, let placed = run.placements[index] else { return }
        if placed.field == .url, case .camera(let id) = run.checks[index],
           let position = printerCameras.firstIndex(where: { $0.id == id }) {
            if position != selectedCamera { camerasEdited(.select(position)) }
            showCheckProblem(placed)
        }
        guard let field = fieldsByProblem.first(where: { $0.0 == placed.field })?.1 else { return }
        reveal(field)
    }

    /// Connects to the printer's status once, as the app would; `then` hears whether it answered.
    func testStatus(_ endpoint: StatusEndpoint, in run: ConnectionTestRun, then: (@MainActor (Bool) -> Void)? = nil) {
        let hasPort = choice.shows(.apiPort), secret = choice.kind.secretNoun
        statusCheck.start({ stop throws(StatusFailure) in try StatusCheck.run(endpoint, stop: stop) }) { [weak self] result in
            switch result {
            case .success(let status):
                self?.finish(.status, in: run, passed: true, ConnectionTestText.status(status))
                then?(true)
            case .failure(let failure):
                self?.finish(.status, in: run, passed: false, CheckFailurePlacement.statusRow(failure, secret: secret),
                             placement: CheckFailurePlacement(failure, hasPort: hasPort, secret: secret))
                then?(false)
            }
        }
    }
}
