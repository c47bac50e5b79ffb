import Foundation

/// Hands out one `StreamSession` per source, so every view of a printer (tab, mini window) shares a
/// single connection: Bambu printers accept only one camera client.
public final class SessionRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var sessions: [StreamSource: StreamSession] = [:]
    private let options: SessionOptions
    private let terms: @Sendable (StreamSource) -> CameraTerms?

    /// `terms` words a source's failures as its printer family would (nil: as any camera's).
    public init(options: SessionOptions = SessionOptions(), terms: @escaping @Sendable (StreamSource) -> CameraTerms? = { _ in nil }) {
        self.options = options
        self.terms = terms
    }

    /// The session for `source`, created on first use.
    public func session(for source: StreamSource) -> StreamSession {
        lock.withLock {
            if let existing = sessions[source] { return existing }
            let created = StreamSession(source: source, options: options, terms: terms(source))
            sessions[source] = created
            return created
        }
    }

    /// The session for `source` if one exists (nothing is created).
    public func existingSession(for source: StreamSource) -> StreamSession? {
        lock.withLock { sessions[source] }
    }

    /// Forgets a source's session once nobody is attached (after a printer is removed or edited).
    public func forget(_ source: StreamSource) {
        lock.withLock {
            if sessions[source]?.consumerCount == 0 { sessions[source] = nil }
        }
    }
}
