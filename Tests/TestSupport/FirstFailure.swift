import Foundation
import StreamKit

/// A session's first failure against a hostile peer and what it cost: how long it took, and how
/// far the process's resident memory rose above where it stood before the session started.
public struct FirstFailure {
    public let failure: StreamFailure?
    public let seconds: TimeInterval
    public let grewBy: Int

    /// Makes the session with `makeSession`, watches it for up to `timeout` and stops it.
    public init(timeout: TimeInterval = 10, of makeSession: () throws -> StreamSession) rethrows {
        let before = ProcessMemory.residentBytes ?? 0
        var peak = before
        let started = Date()
        let session = try makeSession()
        let recorder = SessionRecorder(session: session)
        defer { session.stop() }
        var failure: StreamFailure?
        while failure == nil, Date().timeIntervalSince(started) < timeout {
            peak = max(peak, ProcessMemory.residentBytes ?? 0)
            failure = recorder.states.lazy.compactMap(\.failure).first
            if failure == nil { usleep(20_000) }
        }
        self.failure = failure
        seconds = Date().timeIntervalSince(started)
        grewBy = peak - before
    }
}
