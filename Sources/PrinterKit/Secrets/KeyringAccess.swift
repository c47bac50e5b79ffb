import Foundation

/// The keyring as `ConfigStore` uses it: checked for a Secret Service once, at first use (off the
/// main loop in the app, so a stalled one never freezes the window), and given up on once it
/// declined a secret (a cancelled prompt, a locked keyring, no answer in time) until the user asks
/// to move secrets into it (`retry`), and for good once the app quits while a call hangs, so
/// secrets go to the owner-only file instead and no prompt comes back unasked.
final class KeyringAccess: @unchecked Sendable {
    private let store: (any SecretStore)?
    /// Guards `check`, which runs once; held only while it runs (bounded by its own time limit).
    private let checkLock = NSLock()
    private var check: (() -> Bool)?
    private var answered = true
    /// Guards the two below; never held during a keyring call, so quitting can set them while one hangs.
    private let stateLock = NSLock()
    private var declined = false, abandoned = false

    /// - Parameters:
    ///   - store: the keyring, nil for none.
    ///   - check: whether the keyring answers at all, asked at first use; nil when known to.
    init(store: (any SecretStore)?, check: (() -> Bool)? = nil) {
        self.store = store
        self.check = check
    }

    /// True when there is a keyring to try, before knowing whether it answers.
    var exists: Bool { store != nil }

    /// The keyring when it answers (checking that first, once), nil without one.
    var available: (any SecretStore)? {
        checkLock.withLock {
            if let pending = check {
                check = nil
                answered = pending()
            }
            return answered ? store : nil
        }
    }

    /// Whether the keyring answers, without waiting: nil while nobody has asked yet or another
    /// thread is asking now.
    var isKnownAvailable: Bool? {
        guard checkLock.try() else { return nil }
        defer { checkLock.unlock() }
        return check == nil ? answered && store != nil : nil
    }

    /// True when secrets go to the file without asking the keyring: it declined one, or the app quits.
    var isRefused: Bool { stateLock.withLock { declined || abandoned } }

    /// Keeps secrets out of the keyring until `retry`, after it declined one.
    func decline() {
        stateLock.withLock { declined = true }
    }

    /// Asks the keyring again after it declined: the user asked to move secrets into it.
    func retry() {
        stateLock.withLock { declined = false }
    }

    /// Refuses from now on and cancels the calls in progress: the app is quitting.
    func abandon() {
        stateLock.withLock { abandoned = true }
        store?.abandon()
    }
}
