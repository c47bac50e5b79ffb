import Foundation

/// Decides, for one printer, which print events reach the desktop and when, so that no printer can
/// flood it whatever it reports. Three rules:
/// - a state (finished, failed, cancelled, paused; or back to printing) is told only once it has held for
///   `settleTime`: a printer flapping between PAUSE and RUNNING many times a second tells nothing
///   until one state holds, and a real pause is told `settleTime` after it began;
/// - new HMS alerts are gathered into one burst: its notification counts them and is sent again
///   (replacing itself: one notification id a printer) as more arrive, at most once every
///   `alertSpacing`, so churning alerts never use up what a real pause or failure needs;
/// - at most `perWindow` notifications leave in any `window`; past that the newest one waits (a
///   newer one replaces it) until the window allows it.
/// Pure and clock-driven (`now` is passed in), so it is tested without a desktop; `PrintNotifier`
/// calls `observe` with each live report and `tick` at `nextDeadline`.
public struct NotificationGate: Sendable {
    /// How long a new state must hold before it is told: longer than a flap, short enough that a
    /// pause or failure is told within seconds (Moonraker and OctoPrint are polled every 2 s).
    public static let settleTime: TimeInterval = 3
    /// The window the send budget counts over, and the budget: a few a minute.
    public static let window: TimeInterval = 60
    public static let perWindow = 4
    /// The least time between two notifications about alerts (the burst's count sent again).
    public static let alertSpacing: TimeInterval = 30
    /// A burst of alerts ends after this long without a new code; the next code starts a new count.
    public static let burstQuiet: TimeInterval = 60

    /// What to show: the state event (nil when the notification is only about alerts), the alert
    /// codes of the burst so far (first `ListLimit.alerts`), how many codes the burst has in all,
    /// and the report it is about.
    public struct Tell: Equatable, Sendable {
        public var event: PrintEvent?
        public var alerts: [String]
        public var alertCount: Int
        public var status: PrinterStatus
    }

    /// What was last settled, kept between runs (the ledger saves it): a reconnect or a restart
    /// tells nothing again.
    public private(set) var mark: PrintMark?
    /// A state seen that differs from `mark`, and since when it holds.
    private var candidate: (status: PrinterStatus, since: Date)?
    private var burst: (codes: [String], count: Int, last: Date)?
    private var sent: [Date] = []
    private var lastAlertSent: Date?
    private var waiting: Tell?

    public init(mark: PrintMark?) {
        self.mark = mark
    }

    /// Takes one live report at `now`; what to send now, if anything. A printer seen for the first
    /// time tells nothing of the state it is in, only its grave alerts (`BambuAlert.isGrave`): a
    /// fault raised before Layerwatch connected is still news.
    public mutating func observe(_ status: PrinterStatus, at now: Date) -> Tell? {
        guard status.state != .offline else { return tick(at: now) }
        guard let settled = mark else {
            mark = PrintMark(state: status.state, job: status.job, alerts: status.notifiedAlertCodes)
            let grave = status.alerts.filter(\.isGrave).map(\.code)
            if grave.isEmpty { return nil }
            gather(grave, at: now, status: status)
            return tick(at: now)
        }
        let codes = status.notifiedAlertCodes
        let appeared = codes.filter { !settled.alerts.contains($0) }
        mark = PrintMark(state: settled.state, job: settled.job, alerts: codes)
        if !appeared.isEmpty { gather(appeared, at: now, status: status) }
        let job = status.job ?? (settled.state == status.state ? settled.job : nil)
        if status.state == settled.state && job == settled.job {
            candidate = nil
        } else if let held = candidate, held.status.state == status.state, held.status.job == status.job {
            candidate = (status, held.since)
        } else {
            candidate = (status, now)
        }
        return tick(at: now)
    }

    /// Settles a state that has held long enough and releases what the budget now allows.
    public mutating func tick(at now: Date) -> Tell? {
        if let held = candidate, now.timeIntervalSince(held.since) >= Self.settleTime {
            candidate = nil
            let (events, next) = PrintEvent.changes(from: mark, to: held.status)
            mark = next.map { PrintMark(state: $0.state, job: $0.job, alerts: mark?.alerts ?? []) }
            let event = events.first { if case .alerts = $0 { false } else { true } }
            // A newer settled state replaces the state of a notification still waiting.
            if event != nil || waiting?.event != nil {
                waiting = Tell(event: event, alerts: waiting?.alerts ?? [], alertCount: waiting?.alertCount ?? 0, status: held.status)
                if event == nil && waiting?.alerts.isEmpty == true { waiting = nil }
            }
        }
        if let quiet = burst, now.timeIntervalSince(quiet.last) >= Self.burstQuiet, waiting?.alerts.isEmpty ?? true {
            burst = nil
        }
        sent.removeAll { now.timeIntervalSince($0) >= Self.window }
        guard let tell = waiting, turn(of: tell) <= now else { return nil }
        waiting = nil
        sent.append(now)
        if !tell.alerts.isEmpty { lastAlertSent = now }
        return tell
    }

    /// When `tick` should next be called: a state settling, or a waiting notification's turn.
    public var nextDeadline: Date? {
        let settle = candidate.map { $0.since.addingTimeInterval(Self.settleTime) }
        return [settle, waiting.map(turn)].compactMap { $0 }.min()
    }

    /// The earliest time `tell` may leave: when the window has room, and for a notification only
    /// about alerts, `alertSpacing` after the last one.
    private func turn(of tell: Tell) -> Date {
        var earliest = Date.distantPast
        if sent.count >= Self.perWindow, let oldest = sent.first { earliest = oldest.addingTimeInterval(Self.window) }
        if tell.event == nil, let last = lastAlertSent { earliest = max(earliest, last.addingTimeInterval(Self.alertSpacing)) }
        return earliest
    }

    private mutating func gather(_ codes: [String], at now: Date, status: PrinterStatus) {
        var current = burst ?? ([], 0, now)
        for code in codes where !current.codes.contains(code) {
            current.count += 1
            if current.codes.count < ListLimit.alerts { current.codes.append(code) }
        }
        current.last = now
        burst = current
        waiting = Tell(event: waiting?.event, alerts: current.codes, alertCount: current.count, status: status)
    }
}
