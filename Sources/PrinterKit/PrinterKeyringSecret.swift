import Foundation
import StreamKit

/// What of a printer the keyring keeps instead of `printers.json`: a Bambu printer's access code;
/// a generic camera's whole URL when it holds a password (in its user part or its query), the file
/// then keeping that URL with the password masked (`***`), which also tells a later load to ask the
/// keyring for it; for Klipper and OctoPrint printers both, the API key (the file keeping `***` in
/// its place) and such a URL, as one small JSON object.
extension Printer {
    /// The secret to keep in the keyring, nil when the printer has none.
    var keyringSecret: String? {
        if kind.isBambu { return accessCode.isEmpty ? nil : accessCode }
        let secretURL = url.flatMap { Self.masked($0) != $0 ? $0 : nil }
        guard kind.hasStatusAPI else { return secretURL }
        guard !accessCode.isEmpty || secretURL != nil else { return nil }
        var parts: [String: String] = [:]
        parts[Self.keyPart] = accessCode.isEmpty ? nil : accessCode
        parts[Self.urlPart] = secretURL
        return (try? JSONSerialization.data(withJSONObject: parts, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The printer as the file keeps it when the keyring holds its secret.
    var withoutKeyringSecret: Printer {
        var printer = self
        if kind.isBambu { printer.accessCode = "" }
        if kind.hasStatusAPI && !accessCode.isEmpty { printer.accessCode = Redactor.mask }
        if !kind.isBambu { printer.url = url.map(Self.masked) }
        return printer
    }

    /// True when the file's copy lacks a secret the keyring should give.
    var lacksKeyringSecret: Bool {
        if kind.isBambu { return accessCode.isEmpty }
        let maskedURL = url?.contains(Redactor.mask) ?? false
        return kind.hasStatusAPI ? accessCode == Redactor.mask || maskedURL : maskedURL
    }

    /// Drops the `***` that stands for an API key the keyring could not give, so it is never sent.
    mutating func dropMissingKeyringSecret() {
        if kind.hasStatusAPI && accessCode == Redactor.mask { accessCode = "" }
    }

    /// Puts back the keyring's secret; false when it does not belong to this printer (a camera URL
    /// edited since, whose masked form no longer matches).
    mutating func restoreKeyringSecret(_ secret: String) -> Bool {
        if kind.isBambu {
            accessCode = secret
            return true
        }
        guard kind.hasStatusAPI else { return restoreURL(secret) }
        guard let parts = (try? JSONSerialization.jsonObject(with: Data(secret.utf8))) as? [String: String] else { return false }
        if let key = parts[Self.keyPart] { accessCode = key }
        if let secretURL = parts[Self.urlPart] { return restoreURL(secretURL) }
        return true
    }

    private mutating func restoreURL(_ secret: String) -> Bool {
        guard Self.masked(secret) == url else { return false }
        url = secret
        return true
    }

    private static let keyPart = "apiKey"
    private static let urlPart = "cameraURL"

    /// `url` with every password in it replaced by `***`.
    private static func masked(_ url: String) -> String {
        Redactor(secrets: []).redact(url)
    }
}
