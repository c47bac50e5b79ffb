import Foundation
import StreamKit

/// One printer's status client: a thread of its own that keeps a connection to the printer's API,
/// reconnects with the camera's backoff, and hands every change to the caller on the caller's
/// executor (the GLib main loop in the app, a queue in tests and the command line). A refused code
/// or key is never retried: the app makes a new monitor when the printer is edited.
public final class StatusMonitor: @unchecked Sendable {
    /// How the connection stands.
    public enum Connection: Equatable, Sendable {
        case connecting
        case live
        /// `retryIn` is nil when no retry will come on its own (a refused code, a missing serial).
        case failed(StatusFailure, retryIn: TimeInterval?)
    }

    /// What the caller is told: the connection, the printer's status as last reported (its
    /// state `.offline` while the connection is down), and the print under way in it (what a
    /// command sent on the strength of this update is meant for).
    public struct Update: Equatable, Sendable {
        public let connection: Connection
        public let status: PrinterStatus?
        public let print: PrintUnderWay?
    }

    public let endpoint: StatusEndpoint
    private let executor: EventExecutor
    private let backoff: Backoff
    private let handler: @Sendable (Update) -> Void
    private let log: StatusLog
    private let lock = NSLock()
    private let stopSignal = StopSignal()
    /// Given when the thread has finished (for `stop(waitingUpTo:)`).
    private let ended = StopSignal()
    private var connection: StatusConnection?
    /// Whether `connection` is live, the status it last reported and the print under way in it (for `send`).
    private var isLive = false
    private var lastStatus: PrinterStatus?
    private var lastPrint: PrintUnderWay?
    /// Sent commands waiting for a report to show them done.
    private var watches: [CommandWatch] = []
    private var thread: Thread?
    /// The update waiting for the caller's executor: a newer one replaces it, so a printer sending
    /// thousands of reports a second costs this thread, never the caller's (the main loop).
    private let pending = NewestPending<Update>()
    /// The least time between two hand-overs to the caller: a strip needs no more than 20 a second,
    /// and the main loop then keeps most of its time for input and drawing during a flood.
    static let deliverySpacing: TimeInterval = 0.05
    /// When the next hand-over may go (read and written on the monitor's thread only).
    private var nextDelivery = DispatchTime.now()

    public init(endpoint: StatusEndpoint, executor: EventExecutor, backoff: Backoff = Backoff(),
                handler: @escaping @Sendable (Update) -> Void) {
        self.endpoint = endpoint
        self.executor = executor
        self.backoff = backoff
        self.handler = handler
        self.log = StatusLog(endpoint: endpoint)
    }

    /// Starts the client's thread; a second call does nothing.
    public func start() {
        lock.withLock {
            guard thread == nil else { return }
            let stop = stopSignal
            let made = Thread {
                // Named from inside, in Linux's 15 bytes: a name given before the start, or a longer
                // one, never reaches the system (top -H, /proc).
                Thread.current.name = Self.threadName
                Self.yieldToTheWindow()
                self.runLoop(stop: stop)
                self.ended.stop()
            }
            thread = made
            made.start()
        }
    }

    /// Ends the connection and the thread for good; nothing is delivered after the current delivery.
    /// Until then the running thread keeps the monitor alive: its owner must call this. With a
    /// wait, it returns once the thread has finished (or the wait is over): before a process exits,
    /// so no connection is still inside OpenSSL while the process tears it down.
    public func stop(waitingUpTo seconds: TimeInterval = 0) {
        stopSignal.stop()
        lock.withLock { connection }?.interrupt()
        guard seconds > 0, lock.withLock({ thread != nil }) else { return }
        ended.wait(seconds: seconds)
    }

    /// The status threads' name, as /proc shows it.
    public static let threadName = "lw-status"

    /// How much lower than the window's thread the status threads run (a nice value; Linux keeps
    /// it per thread): a printer flooding reports competes for the processor with the main loop,
    /// and the main loop should win.
    static let niceness: Int32 = 5

    /// Lowers the calling thread's priority by `niceness` (with `who` 0, Linux's setpriority acts on
    /// the calling thread only).
    private static func yieldToTheWindow() {
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    }

    /// Asks the printer to switch its chamber light; the new state arrives as an update.
    public func setChamberLight(_ on: Bool) {
        lock.withLock { connection }?.setChamberLight(on)
    }

    /// How long a command may go without an answer before the user is told.
    public static let commandTimeout: TimeInterval = 10

    /// Sends `command` for `print` (the print under way in the update the user acted on) and hands
    /// `answer` (once, on the executor) how the printer took it: its own answer, `.done` as soon as
    /// a report shows the state the command leads to (from another state), or `.noAnswer` after
    /// `commandTimeout`. Nothing is sent while the status is not live, to a Bambu printer that
    /// wants signed commands, nor when the printer's latest report shows another print than
    /// `print` (or none).
    public func send(_ command: PrintCommand, for print: PrintUnderWay?, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        let once = OnceAnswer(executor: executor, answer: answer)
        let (current, status, underWay) = lock.withLock { (isLive ? connection : nil, lastStatus, lastPrint) }
        guard let current else { return once.give(.notConnected) }
        if status?.needsDeveloperMode == true { return once.give(.needsDeveloperMode) }
        guard underWay == print else {
            log.info("not sending \(command.name): the print changed")
            return once.give(.printChanged(asked: print, now: underWay))
        }
        let watch = status.map { command.isDone(in: $0) } == true ? nil : CommandWatch(command: command, answer: once)
        if let watch { lock.withLock { watches.append(watch) } }
        log.info("sending \(command.name)")
        current.send(command) { [weak self] outcome in
            once.give(outcome)
            self?.log.info("\(command.name): \(outcome.kind)")
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.commandTimeout) { [weak self] in
            once.give(.noAnswer)
            self?.lock.withLock { self?.watches.removeAll { $0.answer === once } }
        }
    }

    /// Answers the commands whose state `status` shows (called on the monitor's thread).
    private func resolveWatches(_ status: PrinterStatus) {
        let done: [CommandWatch] = lock.withLock {
            let done = watches.filter { $0.command.isDone(in: status) }
            watches.removeAll { $0.command.isDone(in: status) || $0.answer.isGiven }
            return done
        }
        done.forEach { $0.answer.give(.done) }
    }

    private func runLoop(stop: StopSignal) {
        var attempt = 0
        var last: PrinterStatus?
        var underWay: PrintUnderWay?
        while !stop.isStopped {
            deliver(.connecting, last, underWay, stop: stop)
            let current = endpoint.makeConnection(log: log)
            lock.withLock { connection = current }
            var wentLive: Date?
            do {
                try current.run(stop: stop, live: {
                    wentLive = Date()
                    lock.withLock { isLive = true }
                    deliver(.live, last, underWay, stop: stop)
                }, report: { status in
                    guard status != last else { return }
                    last = status
                    underWay = PrintUnderWay.following(underWay, in: status)
                    lock.withLock { (lastStatus, lastPrint) = (status, underWay) }
                    resolveWatches(status)
                    deliver(.live, status, underWay, stop: stop)
                })
                lock.withLock { (connection, isLive) = (nil, false) }
                return
            } catch {
                lock.withLock { (connection, isLive) = (nil, false) }
                guard !stop.isStopped else { return }
                if let wentLive, Date().timeIntervalSince(wentLive) >= backoff.healthyAfter { attempt = 0 }
                attempt += 1
                last?.state = .offline
                let delay = error.isRetryable ? backoff.delay(attempt: attempt) : nil
                log.info("\(error.kind): \(error.userMessage)" + (delay.map { String(format: "; retrying in %.1f s", $0) } ?? "; not retrying"))
                deliver(.failed(error, retryIn: delay), last, underWay, stop: stop)
                guard let delay else {
                    // No retry: the thread only waits for its stop (in finite steps: NSCondition
                    // traps on a date too far ahead).
                    while stop.wait(seconds: 3600) {}
                    return
                }
                if !stop.wait(seconds: delay) { return }
            }
        }
    }

    /// Hands `status` to the caller: the newest update replaces one still waiting, and the
    /// executor is asked only when none was, at most once every `deliverySpacing`.
    private func deliver(_ connection: Connection, _ status: PrinterStatus?, _ print: PrintUnderWay?, stop: StopSignal) {
        guard pending.replace(with: Update(connection: connection, status: status, print: print)) else { return }
        let (handler, pending, executor) = (handler, pending, executor)
        let handOver: @Sendable () -> Void = {
            executor.execute {
                guard !stop.isStopped, let update = pending.take() else { return }
                handler(update)
            }
        }
        let now = DispatchTime.now()
        if nextDelivery <= now {
            nextDelivery = now + Self.deliverySpacing
            handOver()
        } else {
            let at = nextDelivery
            nextDelivery = at + Self.deliverySpacing
            DispatchQueue.global().asyncAfter(deadline: at, execute: handOver)
        }
    }
}

/// A command's answer, given at most once on the caller's executor: the printer's answer, its
/// report, and the timeout race for it.
private final class OnceAnswer: @unchecked Sendable {
    private let executor: EventExecutor
    private let answer: @Sendable (CommandOutcome) -> Void
    private let lock = NSLock()
    private var given = false

    init(executor: EventExecutor, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        self.executor = executor
        self.answer = answer
    }

    var isGiven: Bool { lock.withLock { given } }

    func give(_ outcome: CommandOutcome) {
        guard lock.withLock({ given ? false : { given = true; return true }() }) else { return }
        let answer = answer
        executor.execute { answer(outcome) }
    }
}

/// A sent command whose done-ness a report may show.
private struct CommandWatch {
    let command: PrintCommand
    let answer: OnceAnswer
}
