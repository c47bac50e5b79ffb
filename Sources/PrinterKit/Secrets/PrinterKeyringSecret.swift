import Foundation
import StreamKit

/// What of a printer the keyring keeps instead of `printers.json`, as one keyring item per printer:
/// its access code or API key, and the whole URL of each camera whose URL holds a password (in its
/// user part or its query). The file keeps in the key's place what the family's `fileSecretMark` says
/// (`***`; a Bambu code: nothing) and
/// each such URL with its password masked, which also tells a later load to ask the keyring. A
/// Bambu printer whose cameras hold no password keeps its bare code in the item; any other printer
/// a small JSON object: `apiKey` and `cameraURLs` by camera id. Items written by format 2, where
/// each camera was a printer (a bare camera URL, or `apiKey` and one `cameraURL`), still fill in.
extension Printer {
    /// The secret to keep in the keyring, nil when the printer has none.
    var keyringSecret: String? {
        let urls = Dictionary(uniqueKeysWithValues: camerasHoldingPasswords.compactMap { camera in camera.url.map { (camera.id.uuidString, $0) } })
        if secretMark == .nothing && urls.isEmpty { return accessCode.isEmpty ? nil : accessCode }
        let key = secretMark == nil ? "" : accessCode
        guard !key.isEmpty || !urls.isEmpty else { return nil }
        var parts: [String: Any] = [:]
        parts[Self.keyPart] = key.isEmpty ? nil : key
        parts[Self.urlsPart] = urls.isEmpty ? nil : urls
        return (try? JSONSerialization.data(withJSONObject: parts, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The cameras whose URL holds a password (in its user part or its query), which the keyring keeps.
    public var camerasHoldingPasswords: [PrinterCamera] {
        cameras.filter { camera in camera.url.map { Self.masked($0) != $0 } ?? false }
    }

    /// The printer as the file keeps it when the keyring holds its secret.
    var withoutKeyringSecret: Printer {
        var printer = self
        switch secretMark {
        case .nothing: printer.accessCode = ""
        case .mask where !accessCode.isEmpty: printer.accessCode = Redactor.mask
        default: break
        }
        for index in printer.cameras.indices { printer.cameras[index].url = printer.cameras[index].url.map(Self.masked) }
        return printer
    }

    /// True when the file's copy lacks a secret the keyring should give.
    var lacksKeyringSecret: Bool {
        (secretMark == .nothing && accessCode.isEmpty) || lacksMaskedSecret || !camerasLackingPasswords.isEmpty
    }

    /// The cameras whose URL in the file has its password masked.
    var camerasLackingPasswords: [PrinterCamera] {
        cameras.filter { $0.url?.contains(Redactor.mask) ?? false }
    }

    /// Drops the `***` that stands for an API key the keyring could not give, so it is never sent.
    mutating func dropMissingKeyringSecret() {
        if lacksMaskedSecret { accessCode = "" }
    }

    /// Puts back what the keyring's `secret` holds: the code or key (not when `camerasOnly`, for the
    /// format-2 item of one of its cameras), and each camera URL whose masked form is the file's (a
    /// URL edited since does not match and is left).
    mutating func restoreKeyringSecret(_ secret: String, camerasOnly: Bool = false) {
        let parts = (try? JSONSerialization.jsonObject(with: Data(secret.utf8))) as? [String: Any]
        var urls = parts?[Self.urlsPart] as? [String: String] ?? [:]
        if let parts {
            if let key = parts[Self.keyPart] as? String, secretMark != nil, !camerasOnly { accessCode = key }
            // Format 2: a Klipper or OctoPrint printer's one camera.
            if let url = parts[Self.urlPart] as? String { urls[Self.legacyCamera] = url }
        } else if secretMark == .nothing {
            if !camerasOnly { accessCode = secret }
        } else {
            urls[Self.legacyCamera] = secret  // format 2: a generic camera's URL
        }
        for index in cameras.indices {
            guard let masked = cameras[index].url, masked.contains(Redactor.mask) else { continue }
            let url = urls[cameras[index].id.uuidString] ?? urls[Self.legacyCamera]
            if let url, Self.masked(url) == masked { cameras[index].url = url }
        }
    }

    /// What the file keeps in place of the printer's secret, as its family says; nil when it has none.
    private var secretMark: FileSecretMark? { kind.family.secretNoun == nil ? nil : kind.family.fileSecretMark }

    /// True when the file's `***` stands for a secret the keyring has not given (yet).
    private var lacksMaskedSecret: Bool { secretMark == .mask && accessCode == Redactor.mask }

    private static let keyPart = "apiKey"
    private static let urlsPart = "cameraURLs"
    /// Format 2's one camera URL in a Klipper or OctoPrint printer's item.
    private static let urlPart = "cameraURL"
    /// Where `restoreKeyringSecret` puts a format-2 item's URL: any masked camera it matches takes it.
    private static let legacyCamera = "format-2"

    /// `url` with every password in it replaced by `***`.
    private static func masked(_ url: String) -> String {
        Redactor(secrets: []).redact(url)
    }
}
