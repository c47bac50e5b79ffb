import Foundation
import GtkKit
import StatusKit
import StreamKit

/// One question to a printer's host asked off the main loop and answered on it — the dialog's
/// "Find Cameras", Test Connection's "what Creality printer are you?". A new question or `cancel()`
/// (the dialog closing) stops the one in flight, whose answer is then dropped.
@MainActor
final class StatusQuestion<Answer: Sendable> {
    private var current: StopSignal?

    /// Whether a question is in flight.
    var isRunning: Bool { current != nil }

    /// Asks `ask` on a worker thread; `answer` runs on the main loop unless cancelled or replaced first.
    func start(_ ask: @escaping @Sendable (StopSignal) throws(StatusFailure) -> Answer,
               answer: @escaping @MainActor (Result<Answer, StatusFailure>) -> Void) {
        cancel()
        let stop = StopSignal()
        current = stop
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws(StatusFailure) in try ask(stop) }
            MainLoopExecutor.main.runOnMainActor { [weak self] in
                guard let self, current === stop, !stop.isStopped else { return }
                current = nil
                answer(result)
            }
        }
    }

    func cancel() {
        current?.stop()
        current = nil
    }
}
