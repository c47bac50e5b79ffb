import Foundation
import GtkKit
import StatusKit
import StreamKit

/// Test Connection's question to a Creality printer's status websocket — what it says it is
/// (`CrealityIdentity`) — asked off the main loop and answered on it. A new question or `cancel()`
/// (the dialog closing) stops the one in flight, whose answer is then dropped.
@MainActor
final class CrealityCheck {
    private var current: StopSignal?

    /// Asks the printer at `host`:`port`; `answer` runs on the main loop unless cancelled first.
    func start(host: String, port: Int, answer: @escaping @MainActor (Result<CrealityIdentity, StatusFailure>) -> Void) {
        cancel()
        let stop = StopSignal()
        current = stop
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws(StatusFailure) in try CrealityIdentity.read(host: host, port: port, stop: stop) }
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
