import Foundation
import GtkKit
import JournalKit
import PrinterKit
import StatusKit
import StreamKit

/// The print journal in the app: one `JournalStore` for the whole run, window or not (the
/// background stay included), a `PrintRecorder` per saved printer fed the printer's live status
/// from the hub (and, once its status connection is live, the prints its own history remembers that
/// ended while Layerwatch was not running), and the pictures of each print — once its first layer is done, and when it ends:
/// full resolution, upright, JPEGs in `pictures` beside the journal — taken as the notifications
/// take theirs (a camera not connected in the background connects for a moment), kept as long as
/// the preferences say (`PictureRetention`). It exists so the application only composes it, and
/// says what became of a journal that could not be read (`problem`).
@MainActor
final class PrintJournal {
    let store: JournalStore
    /// Each printer's last ended print, told again as prints end and get their final pictures.
    let lastPrints: LastPrints
    private let hub: PrinterStatusHub
    private unowned let library: PrinterLibrary
    private let pictures: PrinterPictures
    /// Where the pictures go: `pictures` beside the journal.
    private let folder: URL
    private var printersObservation: PrinterLibrary.Observation?
    private var retention: PictureRetention?
    /// Each saved printer's recorder, as the journal names the printer, and its status observation.
    private var recorders: [UUID: (printer: PrintRecorder.Printer, recorder: PrintRecorder, observation: PrinterStatusHub.Observation)] = [:]
    /// Pictures being taken or written, or waited for.
    private var taking = 0
    /// The final pictures waited for, by print key (`moment`).
    private var waits: [String: RepeatingTimer] = [:]
    /// What the user must be told of the journal (set aside, or none could be opened), until a
    /// window shows it (`takeProblem`).
    private var problem: String?
    /// Shows a problem in the window if there is one; the application puts its banner here.
    var onProblem: @MainActor (String) -> Void = { _ in }
    /// Called when it became idle (`isIdle`) after a picture was under way.
    var onIdle: @MainActor () -> Void = {}
    /// Called on the main loop after the journal changed (a print recorded or ended, a picture
    /// kept), once for writes close together: the History page follows it.
    var onChange: @MainActor () -> Void = {}
    /// Whether no picture is being taken or written.
    var isIdle: Bool { taking == 0 }

    init(store: JournalStore, hub: PrinterStatusHub, library: PrinterLibrary, pictures: PrinterPictures) {
        self.store = store
        lastPrints = LastPrints(store: store)
        self.hub = hub
        self.library = library
        self.pictures = pictures
        folder = store.picturesFolder
        let changes = CoalescingIdle { [weak self] in self?.onChange() }
        store.onWrite { changes.schedule() }
        store.opening(on: MainLoopExecutor.main) { opening in
            MainActor.assumeIsolated { [weak self] in self?.opened(opening) }
        }
        printersObservation = library.observePrinters { [weak self] printers in self?.follow(printers) }
        retention = PictureRetention(store: store, library: library)
    }

    /// The problem to show in a window opening now, told once.
    func takeProblem() -> String? {
        defer { problem = nil }
        return problem
    }

    private func opened(_ opening: JournalOpening) {
        switch opening {
        case .opened:
            return
        case .setAside(let broken, _):
            problem = String(format: tr("The print journal could not be read. It was set aside as “%@” and a new one started."),
                             broken.lastPathComponent)
        case .unavailable:
            problem = tr("The print journal could not be opened. Prints are not recorded until Layerwatch starts again.")
        }
        if case .setAside(_, let reason) = opening { GLibLog.warning("print journal set aside: \(reason)") }
        if case .unavailable(let reason) = opening { GLibLog.warning("no print journal: \(reason)") }
        if let problem { onProblem(problem) }
    }

    /// Links `video` of printer `id`'s camera to the print it was made of (`PrintRecorder.add`):
    /// a recording begun at `since`, or the timelapse of the print of `job`.
    func add(_ video: JournalVideo, printer id: UUID, since: Date? = nil, job: String? = nil) {
        recorders[id]?.recorder.add(video, since: since, job: job)
    }

    /// Links each recording saved to its print (`add(_:printer:since:)`), and marks each print the
    /// window sent and had started (`expectPrint`).
    func follow(_ recordings: Recordings, _ printFiles: PrintFiles) {
        recordings.onSaved = { [weak self] printer, files, since in
            files.forEach { self?.add(JournalVideo(kind: .recording, file: $0), printer: printer, since: since) }
        }
        printFiles.onStarted = { [weak self] printer, file in self?.expectPrint(printerID: printer, file: file) }
    }

    /// Tells the journal that Layerwatch sent `file` (its name as sent) to the printer of
    /// `printerID` and asked it to print it: the print of that file that begins on that printer
    /// within a few minutes (`PrintRecorder.expectation`) is marked started from Layerwatch. For
    /// the upload code, once the printer took the file and the request to print it; left in the
    /// journal (`JournalStore.expectPrint`), as `layerwatch print` leaves it.
    func expectPrint(printerID: UUID, file: String) {
        store.expectPrint(printerID: printerID.uuidString, file: file)
    }

    /// A recorder for each of `printers` (a new one for a printer edited since: its name, its
    /// camera), none for the others.
    private func follow(_ printers: [Printer]) {
        let ids = Set(printers.map(\.id))
        recorders = recorders.filter { ids.contains($0.key) }
        for printer in printers {
            let camera = (try? PrinterCameras(printer: printer).cameras.first)?.fullName
            let named = PrintRecorder.Printer(id: printer.id.uuidString, name: printer.name, camera: camera)
            if let known = recorders[printer.id]?.printer, known.name == named.name, known.camera == named.camera { continue }
            let recorder = PrintRecorder(store: store, printer: named)
            let id = printer.id
            recorder.onMoment = { key, moment in
                MainLoopExecutor.main.runOnMainActor { [weak self] in self?.moment(moment, ofPrint: key, printer: id) }
            }
            var historyAsked = false
            let endpoint = printer.statusEndpoint
            let observation = hub.observe(printerID: id) { update in
                guard let update, update.connection == .live, let status = update.status else { return }
                if !historyAsked, let endpoint {
                    historyAsked = true
                    DispatchQueue.global(qos: .utility).async { recorder.takeHistory(of: endpoint) }
                }
                recorder.observe(status)
            }
            recorders[id] = (named, recorder, observation)
        }
    }

    /// A print's moment for a picture: its first-layer picture now; its final one when the
    /// notification of its end takes its own (`NotificationGate.settleTime` after the end), so one
    /// picture of the camera serves both.
    private func moment(_ moment: PrintRecorder.Moment, ofPrint key: String, printer id: UUID) {
        taking += 1
        guard moment == .ended else { return takePicture(of: key, final: false, printer: id) }
        lastPrints.changed(id)
        waits[key] = RepeatingTimer(seconds: UInt32(NotificationGate.settleTime)) { [weak self] in
            self?.waits[key] = nil
            self?.takePicture(of: key, final: true, printer: id)
        }
    }

    /// Takes the printer's picture now and keeps it as the final (or first-layer) picture of the
    /// print of `key`; counted in `taking` by the caller.
    private func takePicture(of key: String, final: Bool, printer id: UUID) {
        guard let (camera, _) = pictures.pictureCamera(of: id), let name = recorders[id]?.printer.name else { return tookPicture() }
        let orientation = camera.orientation, store = store
        let place = folder.appendingPathComponent(SavedFiles.name(printer: name, at: Date(), extension: "jpg"))
        pictures.freshPicture(of: id) { frame in
            guard let frame else {
                GLibLog.debug("journal: no picture of \(name)'s print (the camera gave none)")
                return self.tookPicture()
            }
            DispatchQueue.global(qos: .utility).async {
                var file: ExclusiveFile?
                var kept = false
                do {
                    let jpeg = try UprightJPEG.encode(frame, orientation: orientation)
                    try ExclusiveFile.makeFolder(place.deletingLastPathComponent())
                    let made = try ExclusiveFile.create(freeNameLike: place)
                    file = made
                    try jpeg.withUnsafeBytes { try made.write($0) }
                    try made.close()
                    store.setPicture(made.url, final: final, ofPrint: key)
                    kept = true
                } catch {
                    file?.discard()
                    GLibLog.warning("journal: a picture of \(name)'s print could not be saved: \(error)")
                }
                MainLoopExecutor.main.runOnMainActor { [weak self, kept] in
                    if kept { self?.retention?.pictureAdded() }
                    if final { self?.lastPrints.changed(id) }
                    self?.tookPicture()
                }
            }
        }
    }

    private func tookPicture() {
        taking -= 1
        if isIdle { onIdle() }
    }

    /// Waits until every write queued so far is on disk.
    func flush() {
        store.flush()
    }

    /// Finishes the queued writes and closes the journal: at Quit.
    func close() {
        printersObservation = nil
        retention = nil
        recorders = [:]
        waits = [:]
        store.close()
    }
}
