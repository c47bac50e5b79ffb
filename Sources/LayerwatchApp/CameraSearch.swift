import Foundation
import GtkKit
import StatusKit
import StreamKit

/// "Find Cameras": asks a Klipper or OctoPrint host for its cameras off the main loop and answers
/// on it. A new search or `cancel()` stops the one in flight, whose answer is then dropped.
@MainActor
final class CameraSearch {
    private var current: StopSignal?

    var isRunning: Bool { current != nil }

    /// Asks `endpoint` for its cameras; `answer` runs on the main loop unless the search is
    /// cancelled or replaced first.
    func start(_ endpoint: StatusEndpoint, answer: @escaping @MainActor (Result<[ImportedCamera], StatusFailure>) -> Void) {
        cancel()
        let stop = StopSignal()
        current = stop
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws(StatusFailure) in try CameraImport.cameras(at: endpoint, stop: stop) }
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
