import Foundation
import StreamKit

/// The recordings running, kept beside the sessions they record from: pages start and stop their
/// own (`PrinterPage.setRecording`), and every file here is closed before the process ends.
@MainActor
final class Recordings {
    private var running: [StreamRecording] = []

    func add(_ recording: StreamRecording) {
        running.append(recording)
    }

    /// The recording ended (stopped, or failed): nothing is left to close of it.
    func remove(_ recording: StreamRecording) {
        running.removeAll { $0 === recording }
    }

    /// Closes every recording's file before the process ends.
    func finishAll() {
        for recording in running {
            recording.stop()
            recording.waitUntilFinished()
        }
    }
}
