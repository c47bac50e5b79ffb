import Foundation
import StreamKit

/// What of a printer the keyring keeps instead of `printers.json`: a Bambu printer's access code,
/// or a generic camera's whole URL when it holds a password (in its user part or its query); the
/// file then keeps that URL with the password masked (`***`), which also tells a later load to ask
/// the keyring for it.
extension Printer {
    /// The secret to keep in the keyring, nil when the printer has none.
    var keyringSecret: String? {
        if kind.isBambu { return accessCode.isEmpty ? nil : accessCode }
        guard let url, Self.masked(url) != url else { return nil }
        return url
    }

    /// The printer as the file keeps it when the keyring holds its secret.
    var withoutKeyringSecret: Printer {
        var printer = self
        if kind.isBambu { printer.accessCode = "" } else { printer.url = url.map(Self.masked) }
        return printer
    }

    /// True when the file's copy lacks a secret the keyring should give.
    var lacksKeyringSecret: Bool {
        kind.isBambu ? accessCode.isEmpty : url?.contains(Redactor.mask) ?? false
    }

    /// Puts back the keyring's secret; false when it does not belong to this printer (a camera URL
    /// edited since, whose masked form no longer matches).
    mutating func restoreKeyringSecret(_ secret: String) -> Bool {
        if kind.isBambu {
            accessCode = secret
            return true
        }
        guard Self.masked(secret) == url else { return false }
        url = secret
        return true
    }

    /// `url` with every password in it replaced by `***`.
    private static func masked(_ url: String) -> String {
        Redactor(secrets: []).redact(url)
    }
}
