import Foundation
import StreamKit

/// The demo printer's status: a simulated print, so a first-time user sees the status strip, the
/// farm and the print controls before adding a printer. A Benchy of 240 layers takes 24 minutes,
/// starts a third done and, once finished (or stopped), starts over after half a minute. It obeys
/// pause, resume and stop like a printer would, reporting the new state a second later; nothing
/// goes over the network.
final class DemoConnection: StatusConnection, @unchecked Sendable {
    static let job = "Demo_Benchy_0.2mm_PLA.3mf"
    static let layers = 240
    static let duration: TimeInterval = 24 * 60
    /// How long a finished or stopped print stays on screen before the next one starts.
    static let pauseBetweenPrints: TimeInterval = 30

    private let lock = NSLock()
    /// How far the print is (0…1), and since when it has run on (nil while paused or over).
    private var done = 0.33
    private var runningSince: Date? = Date()
    private var ended: (state: PrinterStatus.State, at: Date)?

    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure) {
        live()
        while !stop.isStopped {
            report(status(at: Date()))
            stop.wait(seconds: 1)
        }
    }

    func setChamberLight(_ on: Bool) {}

    func interrupt() {}

    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        let now = Date()
        let outcome: CommandOutcome = lock.withLock {
            let state = state(at: now)
            guard command.applies(to: state) else { return .refused(tr("The demo printer's print is not in that state.")) }
            switch command {
            case .pause:
                done = progress(at: now)
                runningSince = nil
            case .resume:
                runningSince = now
            case .stop:
                done = progress(at: now)
                runningSince = nil
                ended = (.cancelled, now)
            case .speed:
                return .refused(tr("The demo printer has no speed profiles."))
            case .printFile:
                return .refused(PrintCommandText.startsWhenSent)
            }
            return .done
        }
        answer(outcome)
    }

    /// The print's progress (0…1) at `now`; under the lock.
    private func progress(at now: Date) -> Double {
        guard let runningSince else { return done }
        return min(1, done + now.timeIntervalSince(runningSince) / Self.duration)
    }

    /// The state at `now`, starting the next print when the last one has been over long enough;
    /// under the lock.
    private func state(at now: Date) -> PrinterStatus.State {
        if let ended {
            guard now.timeIntervalSince(ended.at) >= Self.pauseBetweenPrints else { return ended.state }
            (done, runningSince, self.ended) = (0, now, nil)
        }
        if progress(at: now) >= 1 {
            (done, runningSince, ended) = (1, nil, (.finished, now))
            return .finished
        }
        return runningSince == nil ? .paused : .printing
    }

    private func status(at now: Date) -> PrinterStatus {
        lock.withLock {
            let state = state(at: now)
            let fraction = progress(at: now)
            var status = PrinterStatus(state: state, job: Self.job, progress: fraction * 100)
            status.layer = max(1, Int((fraction * Double(Self.layers)).rounded(.up)))
            status.totalLayers = Self.layers
            if state == .printing || state == .paused { status.timeLeft = (1 - fraction) * Self.duration }
            let heating = state == .printing || state == .paused
            // A nozzle wandering a little around its target, as a real one does.
            let wobble = sin(now.timeIntervalSinceReferenceDate / 7) * 0.6
            status.nozzles = [.init(current: heating ? 220 + wobble : 32, target: heating ? 220 : 0)].compactMap { $0 }
            status.bed = .init(current: heating ? 60 : 28, target: heating ? 60 : 0)
            return status
        }
    }
}
