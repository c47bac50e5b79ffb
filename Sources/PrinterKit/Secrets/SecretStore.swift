import Foundation

/// Somewhere safer than `printers.json` for printers' access codes (the Secret Service keyring in
/// the app, an in-memory one in tests), so `ConfigStore` can keep codes out of the file.
public protocol SecretStore: Sendable {
    /// Keeps a printer's code, replacing the one it had. `label` is what keyring managers show.
    func store(accessCode: String, for printerID: UUID, label: String) throws
    /// The printer's code, or nil when none is stored.
    func accessCode(for printerID: UUID) throws -> String?
    /// Forgets the printer's code; no error when there was none.
    func removeAccessCode(for printerID: UUID) throws
    /// Cancels the calls in progress and fails every later one at once (the app is quitting).
    func abandon()
}

extension SecretStore {
    /// A store whose calls never wait has nothing to cancel.
    public func abandon() {}
}

/// Where access codes are kept, so the printer dialog can tell the user.
public enum SecretsLocation: Hashable, Sendable {
    /// In the Secret Service keyring (GNOME Keyring, KWallet…), not in `printers.json`.
    case keyring
    /// In `printers.json`, readable only by its owner (mode 0600): no Secret Service was running.
    case configFile
}
