import Foundation
import StatusKit
import StreamKit

/// Writes one printer's prints to the journal from its live status reports: a print begun (or one
/// already under way when it first looks), its pauses, resumes and new HMS alerts, and its end —
/// finished, failed with the printer's words, cancelled. The ends, pauses and alerts are the
/// notifications' own (`PrintEvent.changes`), so the journal and the desktop never disagree on
/// what happened. A print seen again — after a reconnect or a restart of Layerwatch in the middle
/// of it — continues its record: the printer's job id names it where the printer has one, else the
/// printer's newest print of that job still under way is it; a print that ended while Layerwatch
/// was not looking is ended when it first sees the printer again. A print Layerwatch started is
/// marked so from the expectation that whichever process sent the file left in the journal
/// (`JournalStore.expectPrint`). Its state is kept on the journal's queue, where its reads and
/// writes run in order.
public final class PrintRecorder: @unchecked Sendable {
    /// The printer as the journal names it: its id, its name now and its camera.
    public struct Printer: Sendable {
        public let id: String
        public let name: String
        public let camera: String?

        public init(id: String, name: String, camera: String?) {
            self.id = id
            self.name = name
            self.camera = camera
        }
    }

    private let store: JournalStore
    private let printer: Printer
    /// On the journal's queue only: the previous report's mark, the print under way and the
    /// figures last written of it.
    private var mark: PrintMark?
    private var current: JournalPrint?
    private var written: Figures?
    /// On the journal's queue only: the print that ended last of those this recorder saw end, and when.
    private var lastEnded: (key: String, job: String?, at: Date)?

    /// How long the print of a file Layerwatch started is waited for (`JournalStore.expectPrint`),
    /// and how long before the recorder looks a print under way of it may have begun.
    public static let expectation: TimeInterval = 10 * 60

    /// A moment of a print worth a picture.
    public enum Moment: Sendable {
        /// Its first layer is done: the printer went on to the second, seen from the first.
        case firstLayerDone
        /// It ended (finished, failed or cancelled).
        case ended
    }

    /// Called on the journal's queue with a print's key at each of its `Moment`s, once what the
    /// report meant is written: the app takes the print's first-layer and final pictures then.
    /// Set before the first report.
    public var onMoment: (@Sendable (_ key: String, _ moment: Moment) -> Void)?

    private struct Figures: Equatable {
        var layer: Int?
        var totalLayers: Int?
    }

    public init(store: JournalStore, printer: Printer) {
        self.store = store
        self.printer = printer
    }

    /// Takes a live report of the printer's, received at `now`.
    public func observe(_ status: PrinterStatus, at now: Date = Date()) {
        store.write { [self] database in try take(status, at: now, in: database) }
    }

    /// Links `video`, a file of the printer's camera already written, to the print it was made of:
    /// the print under way, else the one that ended last if it ended after `since` (a recording
    /// begun before that end); of `job` only where the video names one (a timelapse, made once
    /// its print ended). A video made while no print ran is linked to none.
    public func add(_ video: JournalVideo, since: Date? = nil, job: String? = nil) {
        store.write { [self] database in
            if let current, job == nil || current.job == job {
                try database.add(video, to: current.key)
            } else if let lastEnded, since.map({ lastEnded.at >= $0 }) ?? true, job == nil || lastEnded.job == job {
                try database.add(video, to: lastEnded.key)
            }
        }
    }

    /// Asks the printer at `endpoint` its own history (blocking: call it off the main loop) and
    /// records the prints there that ended while Layerwatch was not running, marked as from the
    /// printer's history and keyed by the printer's job id, so a print seen live (keyed alike) is
    /// never twice. A printer that keeps none, or cannot be asked, adds nothing.
    public func takeHistory(of endpoint: StatusEndpoint, stop: StopSignal? = nil) {
        do {
            remember(try endpoint.printerHistory(stop: stop))
        } catch {
            StreamLog.log(.info, "journal: \(printer.name)'s own history could not be read: \(error)")
        }
    }

    /// Records `remembered`, prints of the printer's own history.
    func remember(_ remembered: [RememberedPrint]) {
        let prints = remembered.map { print in
            JournalPrint(key: JournalPrint.key(printerID: printer.id, printerJobID: print.jobID, job: print.job, started: print.started),
                         printerID: printer.id, printerName: printer.name, camera: printer.camera, job: print.job,
                         printerJobID: print.jobID, started: print.started, ended: print.ended, result: Self.result(print.ending),
                         error: print.words, filamentUsed: print.filamentUsed, fromPrinterHistory: true)
        }
        guard !prints.isEmpty else { return }
        store.write { try $0.remember(prints) }
    }

    private static func result(_ ending: RememberedPrint.Ending) -> PrintResult {
        switch ending {
        case .finished: .finished
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    /// The report's meaning for the journal. The state changes only once every write is done, so a
    /// report whose writes failed is taken whole again (the store retries it on a new journal).
    private func take(_ status: PrinterStatus, at now: Date, in database: JournalDatabase) throws {
        guard status.state != .offline else { return }
        let previous = mark
        var moments: [(key: String, moment: Moment)] = []
        var (events, next) = PrintEvent.changes(from: previous, to: status)
        var print = current
        var ended = lastEnded
        if status.hasActiveJob {
            if print == nil || (status.job != nil && status.job != print?.job) {
                let continuing = try continued(status, in: database)
                var seen = try continuing ?? begun(status, at: now, in: database)
                if continuing == nil, let marked = try database.markedIfExpected(seen, at: now) { seen = marked } else { try database.insert(seen) }
                print = seen
            } else if let under = print, !under.startedFromLayerwatch, now.timeIntervalSince(under.started) < Self.expectation {
                // Layerwatch may have asked for it after it began: the printer answered later.
                print = try database.markedIfExpected(under, at: now) ?? under
            }
            if previous?.state == .paused, status.state == .printing, let print {
                try database.add(JournalEvent(kind: .resume, at: now), to: print.key)
            }
        } else if previous == nil, let end = PrintEvent(state: status.state), end != .paused,
                  let away = try database.underway(printerID: printer.id, job: status.job) {
            // It ended while Layerwatch was not looking.
            print = away
            events.append(end)
        }
        for event in events {
            guard let under = print else { break }
            try database.insert(under)  // a journal set aside and started anew gets the print again
            switch event {
            case .paused:
                try database.add(JournalEvent(kind: .pause, words: status.errorText, at: now), to: under.key)
            case .alerts(let codes):
                for code in codes {
                    try database.add(JournalEvent(kind: .alert, words: BambuAlert(hmsCode: code)?.summary ?? code, at: now), to: under.key)
                }
            case .finished, .failed, .cancelled:
                let result: PrintResult = event == .finished ? .finished : event == .failed ? .failed : .cancelled
                try database.end(under.key, result: result, at: now, error: result == .failed ? status.errorText : nil,
                                 layer: status.layer, totalLayers: status.totalLayers, filamentUsed: status.filamentUsed)
                moments.append((under.key, .ended))
                ended = (under.key, under.job, now)
                print = nil
            }
        }
        var figures = written
        if !status.hasActiveJob {
            print = nil
            figures = nil
        } else if let print, Figures(layer: status.layer, totalLayers: status.totalLayers) != written {
            try database.progress(print.key, layer: status.layer, totalLayers: status.totalLayers, filamentUsed: status.filamentUsed)
            if written?.layer == 1, let layer = status.layer, layer >= 2 { moments.append((print.key, .firstLayerDone)) }
            figures = Figures(layer: status.layer, totalLayers: status.totalLayers)
        }
        (mark, current, written, lastEnded) = (next, print, figures, ended)
        if let onMoment { moments.forEach { onMoment($0.key, $0.moment) } }
    }

    /// The journal's record of the print under way in `status`, if it has one: the print of the
    /// printer's job id while it is under way, or the printer's newest print of the job still under
    /// way — unless the printer names another job id for it (that print ended while Layerwatch was
    /// not looking, and this is the next of the same name).
    private func continued(_ status: PrinterStatus, in database: JournalDatabase) throws -> JournalPrint? {
        if let jobID = status.jobID {
            let key = JournalPrint.key(printerID: printer.id, printerJobID: jobID, job: status.job, started: Date())
            if let known = try database.print(key), known.result == .underway { return known }
        }
        guard let underway = try database.underway(printerID: printer.id, job: status.job) else { return nil }
        guard let jobID = status.jobID, let known = underway.printerJobID, known != jobID else { return underway }
        return nil
    }

    /// A new record of the print under way in `status`: begun `elapsed` before `now` where the
    /// printer says how long it has run; keyed by the printer's job id, unless an ended print has
    /// that key already (a printer that counts its jobs anew after a reset), then by its start.
    private func begun(_ status: PrinterStatus, at now: Date, in database: JournalDatabase) throws -> JournalPrint {
        let started = now.addingTimeInterval(-(status.elapsed ?? 0))
        var key = JournalPrint.key(printerID: printer.id, printerJobID: status.jobID, job: status.job, started: started)
        if status.jobID != nil, try database.print(key) != nil {
            key = JournalPrint.key(printerID: printer.id, printerJobID: nil, job: status.job, started: started)
        }
        return JournalPrint(key: key, printerID: printer.id, printerName: printer.name, camera: printer.camera, job: status.job,
                            printerJobID: status.jobID, started: started, layer: status.layer, totalLayers: status.totalLayers,
                            filamentUsed: status.filamentUsed)
    }
}
