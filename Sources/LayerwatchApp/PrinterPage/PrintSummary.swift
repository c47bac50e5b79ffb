import Foundation
import StatusKit
import StreamKit

/// What a printer's status says at a glance, in the words the status strip, the mini window's line
/// and the tab share: the state, the job, how far it is, the time left and when it ends, or why
/// there is no status — or, while a printer that answered reconnects, its last status with its age.
/// Worded by `StatusText`; nil where there is nothing to show.
struct PrintSummary: Equatable {
    /// How the state is coloured: the strip's style class `tone-NAME` colours its chip and bar.
    enum Tone: String {
        case neutral, active, warning, error, success
    }

    /// The printer's state; nil when the status connection failed (then `message` says why).
    let state: PrinterStatus.State?
    /// The state's name, or the wait of a command sent from here ("Pausing…").
    private(set) var stateText: String
    /// Whether `stateText` names a command's wait rather than a reported state.
    private(set) var isPending = false
    /// Whether the printer says it is on its way to another state (pausing, resuming, stopping).
    private(set) var isTransition = false
    let tone: Tone
    let job: String?
    /// 0...1 when a progress bar belongs (a job under way, finished or failed).
    let fraction: Double?
    /// "42 %"
    let percent: String?
    /// "layer 17 of 120"
    let layers: String?
    /// "1 h 12 min"
    let timeLeft: String?
    /// "ends 15:42", while printing.
    let finish: String?
    /// The printer's error text, or why its status is not coming, or that it reconnects.
    private(set) var message: String?
    /// Whether this is the last live status, kept while the printer's connection is re-made.
    private(set) var isStale = false
    /// Bambu's print error (while paused or failed) and HMS alerts, in words with their pages.
    let alerts: [BambuAlert]

    /// The summary of `printerID`'s status in `hub`, or nil while there is none to show (no status
    /// endpoint, still connecting, no report yet).
    @MainActor
    init?(of printerID: UUID, in hub: PrinterStatusHub, now: Date = Date()) {
        guard let update = hub.latest(printerID) else { return nil }
        if update.connection != .live, let stale = hub.staleStatus(of: printerID) {
            self.init(stale.status, end: nil, now: now)
            message = String(format: tr("Reconnecting — last report %@"), StatusText.ago(now.timeIntervalSince(stale.since)))
            isStale = true
            return
        }
        if let failure = hub.failure(of: printerID), update.connection != .live {
            self.init(offline: failure.userMessage)
            return
        }
        guard update.connection == .live, let status = update.status else { return nil }
        self.init(status, end: hub.estimatedEnd(of: printerID), now: now, clock: DesktopClock.shared.format)
        if let pending = hub.pendingCommand(of: printerID) {
            stateText = PrintCommandText.pending(pending, for: hub.endpoint(of: printerID))
            isPending = true
        }
    }

    private init(offline message: String) {
        state = nil
        stateText = StatusText.state(.offline)
        tone = .neutral
        (job, fraction, percent, layers, timeLeft, finish) = (nil, nil, nil, nil, nil, nil)
        self.message = message
        alerts = []
    }

    /// `clock`: the desktop's clock format for the end time (nil: the locale's).
    init(_ status: PrinterStatus, end: Date?, now: Date = Date(), clock: ClockFormat? = nil) {
        state = status.state
        stateText = StatusText.state(of: status)
        isTransition = status.transition != nil
        tone = Self.tone(of: status.state)
        let showsProgress = [.printing, .paused, .finished, .failed, .cancelled].contains(status.state)
        job = [.idle, .offline].contains(status.state) ? nil : status.job
        let progress = status.state == .finished ? 100 : status.progress
        let shown = showsProgress ? progress.map { min(100, max(0, $0)) } : nil
        fraction = shown.map { $0 / 100 }
        // From the printer's own figure: 58 % read back from 0.58 × 100 would floor to 57.
        percent = shown.map { String(format: tr("%d %%"), PrinterNumber.rounded($0.rounded(.down))) }
        layers = StatusText.layers(status)
        let left = [.printing, .paused].contains(status.state) ? status.timeLeft : nil
        timeLeft = left.map(StatusText.duration)
        finish = end.flatMap { end in
            status.state == .printing ? String(format: tr("ends %@"), StatusText.finishTime(after: end.timeIntervalSince(now), from: now, clock: clock)) : nil
        }
        let stopped = [.paused, .failed].contains(status.state)
        let printError = stopped ? status.printError : nil
        message = stopped && printError == nil ? status.errorText : nil
        alerts = (printError.map { [$0] } ?? []) + status.alerts
    }

    private static func tone(of state: PrinterStatus.State) -> Tone {
        switch state {
        case .printing, .preparing: return .active
        case .paused: return .warning
        case .failed: return .error
        case .finished: return .success
        case .idle, .cancelled, .offline: return .neutral
        }
    }

    /// "1 h 12 min · ends 15:42", or as much of it as is known.
    var timeText: String? {
        switch (timeLeft, finish) {
        case let (left?, finish?): return String(format: tr("%@ · %@"), left, finish)
        case let (left?, nil): return String(format: tr("%@ left"), left)
        case (nil, _): return nil
        }
    }

    /// One line for a tooltip: "Printing · 42 % · 1 h 12 min · ends 15:42", "Offline — Status: …".
    var oneLine: String {
        let parts = [stateText, percent, timeText].compactMap { $0 }.joined(separator: " · ")
        return (message ?? alerts.first?.summary).map { String(format: tr("%@ — %@"), parts, $0) } ?? parts
    }
}
