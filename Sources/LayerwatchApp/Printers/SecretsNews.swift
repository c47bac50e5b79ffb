import PrinterKit
import StreamKit

/// The main window's sentences on where printers' secrets went, in the user's terms (the access
/// code, the API key, a camera's password; never the keyring's own error): kept in the owner-only
/// `printers.json` when the keyring did not take them, moved into the keyring, and the offer to
/// move them there.
enum SecretsNews {
    /// What to say after `saved` (of these `printers`, the file at `path`): secrets kept in the file
    /// instead of the keyring, secrets moved into it; nothing when neither happened.
    static func after(_ saved: ConfigStore.Saved, printers: [Printer], path: String) -> [String] {
        let kept = printers.filter { saved.keptInFile.contains($0.id) }, moved = printers.filter { saved.moved.contains($0.id) }
        return [kept.isEmpty ? nil : keptInFile(kept, path: path, keyringAnswered: saved.keyringAnswered),
                moved.isEmpty ? nil : self.moved(moved)].compactMap { $0 }
    }

    /// Said at once when the secrets of `printers` went to the file at `path` instead of the
    /// keyring; `keyringAnswered` false when no keyring runs at all.
    static func keptInFile(_ printers: [Printer], path: String, keyringAnswered: Bool) -> String {
        let reason = keyringAnswered ? trPlural("The keyring did not take it.", "The keyring did not take them.", printers.count)
            : tr("No keyring (Secret Service) is running.")
        return inFile(printers, path: path) + " " + reason
    }

    /// Said once the secrets of `printers` left the file for the keyring.
    static func moved(_ printers: [Printer]) -> String {
        let names = quotedNames(printers)
        switch noun(printers) {
        case .accessCode?: return String(format: tr("The access code of %@ is now kept in your keyring."), names)
        case .apiKey?: return String(format: tr("The API key of %@ is now kept in your keyring."), names)
        case .password?: return String(format: tr("The password of %@ is now kept in your keyring."), names)
        case .checkCode?: return String(format: tr("The check code of %@ is now kept in your keyring."), names)
        case .cameraPassword?: return String(format: tr("The camera password of %@ is now kept in your keyring."), names)
        case nil: return String(format: tr("The access codes and passwords of %@ are now kept in your keyring."), names)
        }
    }

    /// Offers to move the secrets of `printers`, kept in the file at `path`, into the keyring that
    /// answers now.
    static func offer(_ printers: [Printer], path: String) -> String {
        inFile(printers, path: path) + " " + trPlural("Your keyring can keep it now.", "Your keyring can keep them now.", printers.count)
    }

    /// The button that moves them.
    static var moveButton: String { tr("Move to Keyring") }

    /// "The access code of “X1C” is kept in <path>, which only you can read."
    private static func inFile(_ printers: [Printer], path: String) -> String {
        let names = quotedNames(printers)
        switch noun(printers) {
        case .accessCode?: return String(format: tr("The access code of %@ is kept in %@, which only you can read."), names, path)
        case .apiKey?: return String(format: tr("The API key of %@ is kept in %@, which only you can read."), names, path)
        case .password?: return String(format: tr("The password of %@ is kept in %@, which only you can read."), names, path)
        case .checkCode?: return String(format: tr("The check code of %@ is kept in %@, which only you can read."), names, path)
        case .cameraPassword?: return String(format: tr("The camera password of %@ is kept in %@, which only you can read."), names, path)
        case nil: return String(format: tr("The access codes and passwords of %@ are kept in %@, which only you can read."), names, path)
        }
    }

    private enum Noun {
        case accessCode, apiKey, password, checkCode, cameraPassword
    }

    /// What the one printer's secret is; nil for several printers (the sentence names them all).
    private static func noun(_ printers: [Printer]) -> Noun? {
        guard printers.count == 1, let printer = printers.first else { return nil }
        switch printer.accessCode.isEmpty ? nil : printer.kind.secretNoun {
        case .accessCode?: return .accessCode
        case .apiKey?: return .apiKey
        case .password?: return .password
        case .checkCode?: return .checkCode
        case nil: return .cameraPassword
        }
    }

    private static func quotedNames(_ printers: [Printer]) -> String {
        printers.map { ConfigStore.quoted($0.name) }.joined(separator: ", ")
    }
}
