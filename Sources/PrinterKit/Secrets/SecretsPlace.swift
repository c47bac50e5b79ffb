import Foundation
import StreamKit

/// Where a printer's secret is, or where one typed now would go, as the printer dialog says it
/// under the access code or API key: learnt from what the keyring actually did with each secret
/// (`ConfigStore.secretsPlace(for:)`), so the dialog never claims the keyring keeps a secret that
/// is in `printers.json`.
public enum SecretsPlace: Hashable, Sendable {
    /// The keyring keeps it (or will: it answers and has not declined).
    case keyring
    /// Not known yet whether a keyring answers: the keyring if one does, else the file at `path`.
    case keyringIfAnswering(path: String)
    /// No keyring answers: the file at `path`.
    case noKeyring(path: String)
    /// The keyring declined a secret this session (a cancelled prompt, a locked keyring), so a new
    /// one goes to the file at `path` without asking it again.
    case keyringDeclined(path: String)
    /// This printer's secret is in the file at `path` (the keyring declined it, or none ran when it
    /// was saved): it can be moved into the keyring.
    case file(path: String)

    /// True when the file holds this printer's secret (`file`).
    public var isInFile: Bool {
        if case .file = self { return true }
        return false
    }

    /// What the secret is called in the dialog's field: a Bambu access code, an API key, a
    /// printer's password (PrusaLink's), a Flashforge printer's check code.
    public enum Noun: Sendable {
        case accessCode, apiKey, password, checkCode
    }

    /// The sentence for the field holding a secret called `noun`.
    public func sentence(for noun: Noun) -> String {
        switch self {
        case .keyring:
            return String(format: pick(noun, tr("The access code is kept in your keyring (Secret Service), not in %@."),
                                       tr("The API key is kept in your keyring (Secret Service), not in %@."),
                                       tr("The password is kept in your keyring (Secret Service), not in %@."),
                                       tr("The check code is kept in your keyring (Secret Service), not in %@.")), ConfigStore.fileName)
        case .keyringIfAnswering(let path):
            return String(format: pick(noun, tr("The access code is kept in your keyring (Secret Service) if one answers, else in %@, which only you can read."),
                                       tr("The API key is kept in your keyring (Secret Service) if one answers, else in %@, which only you can read."),
                                       tr("The password is kept in your keyring (Secret Service) if one answers, else in %@, which only you can read."),
                                       tr("The check code is kept in your keyring (Secret Service) if one answers, else in %@, which only you can read.")), path)
        case .noKeyring(let path):
            return String(format: pick(noun, tr("No keyring (Secret Service) is running, so the access code is kept in %@, which only you can read."),
                                       tr("No keyring (Secret Service) is running, so the API key is kept in %@, which only you can read."),
                                       tr("No keyring (Secret Service) is running, so the password is kept in %@, which only you can read."),
                                       tr("No keyring (Secret Service) is running, so the check code is kept in %@, which only you can read.")), path)
        case .keyringDeclined(let path):
            return String(format: pick(noun, tr("The keyring did not take a secret earlier, so the access code is kept in %@, which only you can read."),
                                       tr("The keyring did not take a secret earlier, so the API key is kept in %@, which only you can read."),
                                       tr("The keyring did not take a secret earlier, so the password is kept in %@, which only you can read."),
                                       tr("The keyring did not take a secret earlier, so the check code is kept in %@, which only you can read.")), path)
        case .file(let path):
            return String(format: pick(noun, tr("This access code is kept in %@, which only you can read, not in your keyring."),
                                       tr("This API key is kept in %@, which only you can read, not in your keyring."),
                                       tr("This password is kept in %@, which only you can read, not in your keyring."),
                                       tr("This check code is kept in %@, which only you can read, not in your keyring.")), path)
        }
    }

    /// The sentence of the four for `noun`.
    private func pick(_ noun: Noun, _ accessCode: String, _ apiKey: String, _ password: String, _ checkCode: String) -> String {
        switch noun {
        case .accessCode: accessCode
        case .apiKey: apiKey
        case .password: password
        case .checkCode: checkCode
        }
    }
}
