import Foundation
import StatusKit
import StreamKit
import XCTest

/// A status monitor under test and every update it delivered, which a test awaits by predicate.
final class StatusRecorder: @unchecked Sendable {
    let monitor: StatusMonitor
    private let condition = NSCondition()
    private var updates: [StatusMonitor.Update] = []

    init(_ endpoint: StatusEndpoint, backoff: StatusBackoff = .quick) {
        let box = Box()
        monitor = StatusMonitor(endpoint: endpoint, executor: DispatchQueue(label: "status-test"),
                                backoff: backoff.value) { box.recorder?.record($0) }
        box.recorder = self
        monitor.start()
    }

    deinit { monitor.stop(waitingUpTo: 2) }

    var all: [StatusMonitor.Update] { condition.withLock { updates } }

    /// The first update from the `from`-th on (seen so far or arriving within `timeout`) that
    /// `match` accepts. `match` runs under the recorder's lock: it must not read `all`.
    @discardableResult
    func expect(_ timeout: TimeInterval = 15, _ what: String, from: Int = 0, file: StaticString = #filePath, line: UInt = #line,
               _ match: (StatusMonitor.Update) -> Bool) -> StatusMonitor.Update? {
        let deadline = Date().addingTimeInterval(timeout)
        let found: StatusMonitor.Update? = condition.withLock {
            while true {
                if let hit = updates.dropFirst(from).first(where: match) { return hit }
                guard condition.wait(until: deadline) else { return nil }
            }
        }
        if found == nil { XCTFail("no update with \(what) in \(timeout) s; saw \(all)", file: file, line: line) }
        return found
    }

    /// Waits for a status that `match` accepts (among the updates from the `from`-th on).
    @discardableResult
    func awaitStatus(_ timeout: TimeInterval = 15, _ what: String, from: Int = 0, file: StaticString = #filePath, line: UInt = #line,
                     _ match: @escaping (PrinterStatus) -> Bool) -> PrinterStatus? {
        expect(timeout, what, from: from, file: file, line: line) { $0.connection == .live && $0.status.map(match) == true }?.status
    }

    /// Sends `command` through the monitor for the print the last update showed and waits up to
    /// `timeout` for its outcome (nil when none came).
    func send(_ command: PrintCommand, timeout: TimeInterval = 15) -> CommandOutcome? {
        let answered = DispatchSemaphore(value: 0)
        let box = OutcomeBox()
        monitor.send(command, for: all.last?.print) { outcome in
            box.set(outcome)
            answered.signal()
        }
        _ = answered.wait(timeout: .now() + timeout)
        return box.value
    }

    private func record(_ update: StatusMonitor.Update) {
        condition.withLock {
            updates.append(update)
            condition.broadcast()
        }
    }

    private final class Box: @unchecked Sendable {
        weak var recorder: StatusRecorder?
    }
}

/// Backoffs for tests: quick retries, so a reconnect is seen in a second or two.
struct StatusBackoff {
    let value: Backoff
    static let quick = StatusBackoff(value: Backoff(initial: 0.3, maximum: 1, jitter: 0))
}

extension StatusMonitor.Update {
    var failure: StatusFailure? {
        if case .failed(let failure, _) = connection { return failure }
        return nil
    }
}

/// One outcome handed over from the monitor's executor.
private final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: CommandOutcome?

    func set(_ value: CommandOutcome) { lock.withLock { outcome = value } }
    var value: CommandOutcome? { lock.withLock { outcome } }
}
