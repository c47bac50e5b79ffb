import Foundation
import GtkKit
import PrinterKit
import StatusKit

/// Every saved printer's live print status in one place: one `StatusMonitor` per printer that has a
/// status endpoint (started when the printers are loaded or added, replaced when an edit changes
/// the endpoint, stopped when the printer is removed or the app quits), the last update of each,
/// and whoever follows them — the tab, the status strips, the light switches, notifications. A
/// printer's status is independent of its camera: either can fail while the other works.
@MainActor
final class PrinterStatusHub {
    /// Keeps one `observe` call's handler alive: the handler is dropped with its observation.
    final class Observation {
        fileprivate init() {}
    }

    private struct Observer {
        weak var observation: Observation?
        let handler: @MainActor (StatusMonitor.Update?) -> Void
    }

    private struct Entry {
        let monitor: StatusMonitor
        var latest: StatusMonitor.Update?
        /// The time left the printer last reported and when that figure first came: the finish
        /// time stays put while a printer repeats the same minute count.
        var finish: (timeLeft: TimeInterval, since: Date)?
        /// Why the last connection attempt failed, kept until the status is live again, so the
        /// message stays up while the monitor waits and reconnects.
        var failure: StatusFailure?
        /// The print command sent from here that the printer has not shown done yet, or whose
        /// late success would still be told.
        var wait: CommandWait?
        /// The last live status and when the connection to it dropped, while the monitor
        /// reconnects: the views show it dimmed, with its age, rather than a failure.
        var stale: (status: PrinterStatus, since: Date)?
    }

    private var entries: [UUID: Entry] = [:]
    /// The commands `send` sent: what they lead to is not notified back (`PrintNotifier`).
    let sentCommands = SentCommands()
    private var observers: [UUID: [Observer]] = [:]
    /// The printers `sync` was last given.
    private var printers: [Printer] = []
    /// The demo printer's id while its tab is open: its simulated print (`StatusEndpoint.demo`)
    /// has a monitor like a printer's.
    var demo: UUID? {
        didSet { if demo != oldValue { sync(printers) } }
    }

    /// Brings the monitors in line with `printers` (and the demo's): starts one for each printer
    /// with a status endpoint, replaces those whose endpoint changed, stops those of printers no
    /// longer there.
    func sync(_ printers: [Printer]) {
        self.printers = printers
        var wanted = Dictionary(printers.compactMap { printer in printer.statusEndpoint.map { (printer.id, $0) } },
                                uniquingKeysWith: { first, _ in first })
        if let demo { wanted[demo] = .demo }
        for (id, entry) in entries where wanted[id] != entry.monitor.endpoint {
            entry.monitor.stop()
            entries[id] = nil
            notify(id)
        }
        for (id, endpoint) in wanted where entries[id] == nil {
            let monitor = StatusMonitor(endpoint: endpoint, executor: MainLoopExecutor.main) { [weak self] update in
                MainActor.assumeIsolated { self?.received(update, for: id) }
            }
            entries[id] = Entry(monitor: monitor)
            monitor.start()
        }
    }

    /// How many saved printers have a status connection (the demo's simulation is not watching one).
    var watchedPrinters: Int {
        entries.keys.filter { $0 != demo }.count
    }

    /// Stops every monitor (the app quits); `sync` starts them again.
    func stopAll() {
        let ids = Array(entries.keys)
        // The process is going: each connection is closed, not left
        // running into the process's exit (each wakes at once; the wait is a bound, not a delay).
        entries.values.forEach { $0.monitor.stop(waitingUpTo: 1) }
        entries.removeAll()
        ids.forEach(notify)
    }

    /// Calls `handler` now with the printer's latest update and again after every change, for as
    /// long as the returned observation is kept. The update is nil while the printer has no status
    /// (a plain camera, a Bambu printer without its code) or none has come yet.
    func observe(printerID: UUID, _ handler: @escaping @MainActor (StatusMonitor.Update?) -> Void) -> Observation {
        let observation = Observation()
        observers[printerID, default: []].removeAll { $0.observation == nil }
        observers[printerID, default: []].append(Observer(observation: observation, handler: handler))
        handler(latest(printerID))
        return observation
    }

    /// The printer's last update; nil as for `observe`.
    func latest(_ printerID: UUID) -> StatusMonitor.Update? {
        entries[printerID]?.latest
    }

    /// The printer's status monitor (which starts a file the printer only stored), while it has one.
    func monitor(of printerID: UUID) -> StatusMonitor? {
        entries[printerID]?.monitor
    }

    /// Where the printer's status comes from, while it has a monitor.
    func endpoint(of printerID: UUID) -> StatusEndpoint? {
        entries[printerID]?.monitor.endpoint
    }

    /// When the print should end: the time left the printer last reported, counted from when it
    /// first reported that figure. Nil unless it is printing with an estimate (a pause moves the end).
    func estimatedEnd(of printerID: UUID) -> Date? {
        entries[printerID]?.finish.map { $0.since.addingTimeInterval($0.timeLeft) }
    }

    /// The printer's last live status and since when its connection is down, while it reconnects
    /// after having answered.
    func staleStatus(of printerID: UUID) -> (status: PrinterStatus, since: Date)? {
        entries[printerID]?.stale
    }

    /// Why the printer's status is not coming, from the failed attempt until it is live again.
    func failure(of printerID: UUID) -> StatusFailure? {
        entries[printerID]?.failure
    }

    /// Asks the printer to switch its chamber light; the switch follows when the printer reports it.
    func setChamberLight(_ on: Bool, for printerID: UUID) {
        entries[printerID]?.monitor.setChamberLight(on)
    }

    /// Sends a print command to the printer for `print` (the print under way in the update the user
    /// acted on; nothing goes when another is under way now); `answer` gets how it took it, on the
    /// main loop. What the print does shows in the printer's next report, as for the light; until
    /// then, or until `StatusMonitor.commandTimeout`, the command is `pendingCommand`. A report
    /// showing it done after that calls `lateDone`.
    func send(_ command: PrintCommand, to printerID: UUID, for print: PrintUnderWay?,
              answer: @escaping @MainActor (CommandOutcome) -> Void, lateDone: @escaping @MainActor () -> Void) {
        guard let monitor = entries[printerID]?.monitor else { return answer(.notConnected) }
        let wait = CommandWait(command, for: print, lateDone: lateDone) { [weak self] in self?.notify(printerID) }
        entries[printerID]?.wait = wait
        notify(printerID)
        sentCommands.record(command, to: printerID)
        monitor.send(command, for: print) { [weak self, weak wait, sentCommands] outcome in
            MainActor.assumeIsolated {
                if ![.done, .noAnswer].contains(outcome) { sentCommands.forget(command, to: printerID) }
                // A refusal, or nothing sent, ends the wait; silence leaves a late report to be told.
                if outcome != .done, let self, let wait, wait.isWaiting {
                    wait.runOut()
                    if outcome != .noAnswer, self.entries[printerID]?.wait === wait { self.entries[printerID]?.wait = nil }
                    self.notify(printerID)
                }
                answer(outcome)
            }
        }
    }

    /// The print command the printer was sent from here and has not shown done, while the wait for
    /// it lasts ("Pausing…").
    func pendingCommand(of printerID: UUID) -> PrintCommand? {
        entries[printerID]?.wait.flatMap { $0.isWaiting ? $0.command : nil }
    }

    private func received(_ update: StatusMonitor.Update, for id: UUID) {
        guard var entry = entries[id] else { return }
        if update.connection != .live, entry.stale == nil, entry.latest?.connection == .live, let status = entry.latest?.status {
            entry.stale = (status, Date())
        }
        entry.latest = update
        switch update.connection {
        case .live:
            entry.failure = nil
            entry.stale = nil
        case .failed(let failure, let retryIn):
            entry.failure = failure
            // No retry coming (a refused code): the failure is the news, not a reconnection.
            if retryIn == nil { entry.stale = nil }
        case .connecting: break
        }
        if let status = update.status, status.state == .printing, let left = status.timeLeft {
            if entry.finish?.timeLeft != left { entry.finish = (left, Date()) }
        } else {
            entry.finish = nil
        }
        // The report that shows a command done ends its wait; one that shows it done after the
        // wait ran out is told as its late answer.
        var late: CommandWait?
        if let wait = entry.wait, case let outcome = wait.outcome(of: update), outcome != .waiting {
            if outcome == .done, !wait.isWaiting { late = wait }
            wait.runOut()
            entry.wait = nil
        }
        entries[id] = entry
        notify(id)
        late?.lateDone()
    }

    private func notify(_ id: UUID) {
        observers[id]?.removeAll { $0.observation == nil }
        let update = latest(id)
        for observer in observers[id] ?? [] {
            observer.handler(update)
        }
    }
}
