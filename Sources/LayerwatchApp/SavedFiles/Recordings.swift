import Foundation
import StreamKit

/// The recordings running, kept beside the sessions they record from: pages start and stop their
/// own (`PrinterPage.setRecording`), every file here is closed before the process ends, and while
/// the window is closed to the background their sessions are held connected (`holdSessions`), so
/// they go on with no view. What a recording wrote is told (`onSaved`) when it ends.
@MainActor
final class Recordings {
    private var running: [(recording: StreamRecording, session: StreamSession)] = []
    /// The connections held for the recordings while no window shows them.
    private var keepers: [StreamConsumer] = []

    /// Whether any recording runs.
    var isEmpty: Bool { running.isEmpty }
    /// Called when the last recording ended: nothing holds the process for one any more.
    var onIdle: @MainActor () -> Void = {}
    /// Called with the files a recording of printer `printer`'s camera begun at `since` wrote, once
    /// it ended (the journal links them to the print they were made of).
    var onSaved: @MainActor (_ printer: UUID, _ files: [URL], _ since: Date) -> Void = { _, _, _ in }

    func add(_ recording: StreamRecording, of session: StreamSession) {
        running.append((recording, session))
    }

    /// The recording ended (stopped, or failed): nothing is left to close of it, nor to hold.
    func remove(_ recording: StreamRecording) {
        guard let ended = running.first(where: { $0.recording === recording }) else { return }
        running.removeAll { $0.recording === recording }
        if !running.contains(where: { $0.session === ended.session }), let keeper = keepers.first(where: { $0.session === ended.session }) {
            keeper.detach()
            keepers.removeAll { $0 === keeper }
        }
        if running.isEmpty { onIdle() }
    }

    /// Holds each recording's session connected while the views that showed it go (the window
    /// closes to the background): a recording otherwise ends with its camera's last view.
    func holdSessions() {
        for (_, session) in running where !keepers.contains(where: { $0.session === session }) {
            keepers.append(session.keepConnected())
        }
    }

    /// Lets the held sessions go: views show them again (the window is back).
    func releaseSessions() {
        keepers.forEach { $0.detach() }
        keepers = []
    }

    /// Closes every recording's file before the process ends.
    func finishAll() {
        for (recording, _) in running {
            recording.stop()
            recording.waitUntilFinished()
        }
    }
}
