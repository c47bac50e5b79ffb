import Foundation
import StreamKit

/// Test Connection's check of a printer's status: one connection of the kind the printer speaks
/// (a Bambu printer's MQTT login with its access code and serial, Moonraker's or OctoPrint's status
/// request), held until the printer accepted it and sent its first report, then closed. Unlike
/// `StatusMonitor` it never retries: the first failure is the answer.
public enum StatusCheck {
    /// How long the whole check may take.
    public static let timeout: TimeInterval = 15
    /// How long a first report is waited for once the printer accepted the connection.
    static let reportWait: TimeInterval = 3

    /// The printer's first report, or nil when it accepted the connection without reporting within
    /// `reportWait`; throws why it did not accept it. `stop` ends it early (its answer is then moot).
    public static func run(_ endpoint: StatusEndpoint, stop: StopSignal) throws(StatusFailure) -> PrinterStatus? {
        let connection = endpoint.makeConnection(log: StatusLog(endpoint: endpoint))
        let progress = Progress()
        let ended = StopSignal()
        let deadline = Date().addingTimeInterval(timeout)
        // Ends the connection once it reported, the report wait is over, the caller stopped or the
        // time is up; itself ends when the connection has.
        DispatchQueue.global(qos: .userInitiated).async {
            while ended.wait(seconds: 0.1) {
                if stop.isStopped || Date() >= deadline || progress.isDone { break }
            }
            ended.stop()
            connection.interrupt()
        }
        defer { ended.stop() }
        do {
            try connection.run(stop: ended, live: { progress.wentLive() }, report: { progress.reported($0) })
        } catch {
            // A connection ended by the check itself after it went live has answered.
            guard progress.isLive else { throw error }
        }
        guard progress.isLive else { throw .timeout }
        return progress.status
    }

    /// What the connection did so far, from its thread, for the watcher's.
    private final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var liveAt: Date?
        private var first: PrinterStatus?

        func wentLive() { lock.withLock { if liveAt == nil { liveAt = Date() } } }

        func reported(_ status: PrinterStatus) { lock.withLock { if first == nil { first = status } } }

        var isLive: Bool { lock.withLock { liveAt != nil } }

        var status: PrinterStatus? { lock.withLock { first } }

        /// Reported, or live for `reportWait` without a report.
        var isDone: Bool {
            lock.withLock { first != nil || liveAt.map { Date().timeIntervalSince($0) >= StatusCheck.reportWait } == true }
        }
    }
}
