import CameraKit
import Foundation
import GtkKit
import PrinterKit
import StatusKit
import StreamKit

/// Timelapses of prints. For every saved printer (the library's printers stream) whose timelapse is
/// on (`Printer.timelapse`) it follows the status in the hub: while a print runs it takes a picture
/// at each layer change (or every so many seconds) from a full-resolution frame of the printer's
/// camera session (decoded with deblocking: `captureFullResolution`), upright as the camera is
/// mounted, and puts it on disk as a JPEG (`TimelapseFrames`, in the app's state folder: a restart
/// mid-print adds to the same timelapse); when the print finishes or fails it makes the pictures an
/// H.264 video in Videos/Layerwatch and hands it to `onVideo` (the notifier offers to open it). A
/// video that cannot be written (a full disk, a folder not writable) leaves no file: its pictures
/// are set aside (`TimelapseVideoMaker`), `onFailure` says so, and they are tried again when the
/// app starts and whenever one of the printer's prints ends. The pictures are encoded and written
/// on its own queue, never on the main loop.
@MainActor
final class TimelapseTaker {
    /// What is known of one followed printer.
    private final class Followed {
        let store: TimelapseFrames
        var observation: PrinterStatusHub.Observation?
        /// The print being taken, once seen printing.
        var job: String?
        var lastLayer: Int?
        /// When the last picture was asked for: per-layer pictures come at most one per `minimumGap`.
        var lastTaken: Date?
        /// Whether `minimumGap` has passed since the last picture (or none was taken).
        var isRested: Bool { lastTaken.map { Date().timeIntervalSince($0) >= TimelapseTaker.minimumGap } ?? true }
        /// Whether the print reached `maximumPictures` (and said so); read and written on the queue.
        var isFull = false
        var timer: RepeatingTimer?
        /// The connection of the camera the print's pictures come from, held while it prints
        /// (`holdCamera`).
        var keeper: StreamConsumer?
        var timelapse: Timelapse
        /// What the video is named after: the camera of the last picture ("Voron — Nozzle" when
        /// the printer has several), nil before this run took one.
        var cameraName: String?
        /// The print an earlier run left pictures of, and the layer of its last one.
        let resumable: (job: String?, layer: Int?)

        /// Read before its queue ever touches `store`.
        init(store: TimelapseFrames, timelapse: Timelapse) {
            self.store = store
            self.timelapse = timelapse
            resumable = (store.job, store.layer)
        }
    }

    /// Where the pictures of printer `id` wait: `folder/<id>/`.
    let folder: URL
    /// Where the videos go (the Preferences' recordings folder).
    var videoFolder = SavedFiles.folder(.videos)
    private var foldersObservation: PrinterLibrary.Observation?
    /// A video was made of the pictures of `job` on printer `id` (`failed`: the print failed).
    var onVideo: @MainActor (_ id: UUID, _ video: URL, _ job: String, _ failed: Bool) -> Void = { _, _, _, _ in }
    /// Called when the last camera held for a print was let go (`holdsACamera` turned false).
    var onIdle: @MainActor () -> Void = {}
    /// The video of printer `printer`'s timelapse could not be made, for `reason`; its pictures are kept.
    var onFailure: @MainActor (_ printer: String, _ reason: String) -> Void = { _, _ in }

    private let hub: PrinterStatusHub
    /// The camera of printer `id` that pictures come from (the one its tab shows, else its first),
    /// and its session.
    private let camera: @MainActor (UUID) -> (camera: Camera, session: StreamSession)?
    private unowned let library: PrinterLibrary
    private var printersObservation: PrinterLibrary.Observation?
    private var followed: [UUID: Followed] = [:]
    /// The least time between two per-layer pictures: a printer reporting a new layer many times a
    /// second (a glitch, or a hostile host) gets one picture in this time, a real print every layer.
    nonisolated static let minimumGap: TimeInterval = 3
    /// The most pictures one print keeps (a video of almost three minutes; at most about 2 GB of
    /// 1080p JPEGs): past it the print's later pictures are not taken, with one log line.
    nonisolated static let maximumPictures = 5000
    /// Encodes and writes pictures, and makes videos, in order.
    private let queue = DispatchQueue(label: "layerwatch.timelapse")

    init(folder: URL, hub: PrinterStatusHub, library: PrinterLibrary,
         camera: @escaping @MainActor (UUID) -> (camera: Camera, session: StreamSession)?) {
        self.folder = folder
        self.hub = hub
        self.library = library
        self.camera = camera
        printersObservation = library.observePrinters { [weak self] printers in self?.follow(printers) }
        foldersObservation = library.observePreferences { [weak self] preferences in self?.videoFolder = SavedFiles.recordingFolder(preferences) }
    }

    /// Follows the printers of `printers` whose timelapse is on; forgets the rest.
    private func follow(_ printers: [Printer]) {
        let wanted = Dictionary(uniqueKeysWithValues: printers.compactMap { printer in printer.timelapse.map { (printer.id, $0) } })
        for id in followed.keys where wanted[id] == nil {
            if let entry = followed[id] { holdCamera(nil, for: entry) }
            followed[id] = nil
        }
        for (id, timelapse) in wanted {
            if let known = followed[id] {
                known.timelapse = timelapse
                continue
            }
            let entry = Followed(store: TimelapseFrames(folder: folder.appendingPathComponent(id.uuidString)), timelapse: timelapse)
            followed[id] = entry
            entry.observation = hub.observe(printerID: id) { [weak self] update in self?.received(update, for: id) }
            let maker = videoMaker(of: id)
            queue.async { maker.retry() }
        }
    }

    private func printer(_ id: UUID) -> Printer? {
        library.printer(id: id)
    }

    /// Whether a print's pictures are being taken: a camera held while it prints.
    var holdsACamera: Bool { followed.values.contains { $0.keeper != nil } }

    /// Blocks until the pictures taken so far are on disk and any video is made (tests, quitting).
    func flush() {
        queue.sync {}
    }

    /// Pictures of printer `id`'s print waiting on disk.
    func pictureCount(of id: UUID) -> Int {
        guard let entry = followed[id] else { return 0 }
        return queue.sync { entry.store.count }
    }

    private func received(_ update: StatusMonitor.Update?, for id: UUID) {
        guard let entry = followed[id] else { return }
        guard let update else { return holdCamera(nil, for: entry) }  // the status stopped (Quit)
        guard update.connection == .live, let status = update.status else { return }
        switch status.state {
        case .printing, .paused, .preparing:
            let job = status.job ?? tr("Print")
            if entry.job != job { start(job, on: entry) }
            holdCamera(camera(id)?.session, for: entry)
            guard status.state == .printing else {
                entry.timer = nil
                return
            }
            switch entry.timelapse {
            case .perLayer:
                guard let layer = status.layer, layer > 0, layer != entry.lastLayer else { break }
                entry.lastLayer = layer
                if entry.isRested {
                    entry.timer = nil
                    take(for: id, entry: entry, layer: layer)
                } else if entry.timer == nil {
                    // Too soon after the last picture: the newest layer is taken once the gap is over
                    // (a printer reports a layer once; nothing else would ask again).
                    entry.timer = RepeatingTimer(seconds: 1) { [weak self, weak entry] in
                        guard let self, let entry, entry.isRested, let layer = entry.lastLayer else { return }
                        entry.timer = nil
                        take(for: id, entry: entry, layer: layer)
                    }
                }
            case .every(let seconds):
                if entry.timer == nil {
                    take(for: id, entry: entry, layer: nil)
                    entry.timer = RepeatingTimer(seconds: UInt32(seconds)) { [weak self, weak entry] in
                        guard let self, let entry else { return }
                        take(for: id, entry: entry, layer: nil)
                    }
                }
            }
        case .finished, .failed, .cancelled, .idle:
            entry.timer = nil
            holdCamera(nil, for: entry)
            let job = status.job ?? entry.job
            entry.job = nil
            entry.lastLayer = nil
            finish(job, failed: status.state == .failed, on: entry, id: id)
        case .offline:
            entry.timer = nil
            holdCamera(nil, for: entry)
        }
    }

    /// Keeps `session` connected for the print (nil: lets the held one go), so its pictures are
    /// taken whether or not a view shows the camera — with the window closed to the background, no
    /// view does. A held connection without a view decodes keyframes only until a picture is asked.
    private func holdCamera(_ session: StreamSession?, for entry: Followed) {
        guard entry.keeper?.session !== session else { return }
        entry.keeper?.detach()
        entry.keeper = session?.keepConnected()
        if !holdsACamera { onIdle() }
    }

    /// Begins (or, after a restart, resumes) the timelapse of `job`.
    private func start(_ job: String, on entry: Followed) {
        entry.job = job
        entry.lastLayer = entry.resumable.job == job ? entry.resumable.layer : nil
        let store = entry.store
        queue.async {
            entry.isFull = false
            do { try store.begin(job: job) } catch { GLibLog.warning("timelapse: \(error.localizedDescription)") }
        }
    }

    /// Takes one picture: the next full-resolution frame, upright, as a JPEG on disk.
    private func take(for id: UUID, entry: Followed, layer: Int?) {
        // The camera its tab shows, upright as that camera is mounted.
        guard let (camera, session) = camera(id) else { return }
        holdCamera(session, for: entry)
        entry.lastTaken = Date()
        entry.cameraName = camera.fullName
        let orientation = camera.orientation, store = entry.store
        session.captureFullResolution(executor: queue) { frame in
            guard let frame else { return }
            guard store.count < Self.maximumPictures else {
                if !entry.isFull { GLibLog.warning("timelapse: \(Self.maximumPictures) pictures of this print kept; no more are taken") }
                entry.isFull = true
                return
            }
            do {
                try store.add(jpeg: UprightJPEG.encode(frame, orientation: orientation), layer: layer)
            } catch {
                GLibLog.warning("timelapse picture: \(error)")
            }
        }
    }

    /// Makes the pictures of `job` a video (if there are any of it), after trying again the
    /// printer's pictures set aside before.
    private func finish(_ job: String?, failed: Bool, on entry: Followed, id: UUID) {
        let store = entry.store, maker = videoMaker(of: id)
        queue.async {
            maker.retry()
            guard let job, store.job == job, store.count > 0 else { return }
            maker.make(store, job: job, failed: failed)
        }
    }

    /// What makes printer `id`'s videos: into the videos folder, pictures it cannot make a video of
    /// set aside in `folder/unsaved/<id>/`.
    private func videoMaker(of id: UUID) -> TimelapseVideoMaker {
        TimelapseVideoMaker(taker: self, id: id, printer: followed[id]?.cameraName ?? printer(id)?.name ?? tr("Printer"), videoFolder: videoFolder,
                            unsaved: folder.appendingPathComponent("unsaved").appendingPathComponent(id.uuidString))
    }
}
