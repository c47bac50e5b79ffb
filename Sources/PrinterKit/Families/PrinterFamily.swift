import Foundation
import StatusKit
import StreamKit

/// What one printer family is to a saved printer, declared once in the family's own file: its
/// kind names and variant field in `printers.json`, its status endpoint, its own camera, how the add
/// dialog's fields make a printer of it, and its go2rtc and format-2 particulars. `Printer.Kind`,
/// `PrinterCoding`, `PrinterDraft`, `Go2RTCExport` and `FormatTwoMigration` know families only
/// through this protocol and `PrinterFamilies`.
protocol PrinterFamily: Sendable {
    /// The `kind` names its printers have in `printers.json` (`bambuRTSPS`, `bambuJPEG`).
    var kindNames: [String] { get }
    /// The `printers.json` field that keeps a printer's variant (`model`, `family`); nil when it has none.
    var variantKey: String? { get }
    /// The variant for `raw` as read from `variantKey`; nil for one this version does not know.
    func variant(_ raw: String) -> String?
    /// The variant of a printer whose `variantKey` is missing or unknown.
    var defaultVariant: String? { get }
    /// True when its own camera is reached from its address (Bambu, Creality): it has no URL, is
    /// listed first and cannot be removed.
    var hasOwnCamera: Bool { get }
    /// True when its printers may have no camera: their status connection owes nothing to a camera
    /// (Klipper, OctoPrint, PrusaLink, Flashforge), so they are watched without a picture.
    var canGoWithoutCamera: Bool { get }
    /// What its printers' secret (`Printer.accessCode`) is called: a Bambu access code, an API key;
    /// nil when it has none.
    var secretNoun: SecretsPlace.Noun? { get }
    /// What `printers.json` keeps in place of its secret while the keyring holds it (`***` unless it says otherwise).
    var fileSecretMark: FileSecretMark { get }
    /// True when its cameras by URL must be on the network (a printer's, not a file).
    var camerasOnNetwork: Bool { get }
    /// How discovery (`PrinterDiscovery`) finds its printers on the network; nil when it does not.
    var discovery: (any FamilyDiscovery)? { get }
    /// What the window's subtitle calls a printer of `kind`; nil for a camera by URL.
    func displayName(of kind: Printer.Kind) -> String?
    /// Where `printer`'s status comes from; nil when it has none or lacks what it needs.
    func statusEndpoint(of printer: Printer) -> StatusEndpoint?
    /// The stream of `printer`'s own camera (`hasOwnCamera`).
    func ownCameraSource(of printer: Printer) throws -> StreamSource
    /// The go2rtc source for `printer`'s own camera; `printers` are all those saved.
    func go2rtcSource(of printer: Printer, camera index: Int, among printers: [Printer]) -> Result<Go2RTCExport.Source, Go2RTCExport.Omission>
    /// What the format-2 entries of one printer of this family share; nil when they were never joined.
    func formatTwoJoinKey(of printer: Printer) -> String?
    /// The printer the dialog's fields describe, a message in `messages` for each field that is wrong.
    func printer(from draft: PrinterDraft, name: String, messages: inout [PrinterDraft.Field: String]) -> Printer
    /// How failures of `source` are worded when it is this family's printer's camera; nil when it
    /// is not, or the family has no words of its own.
    func cameraTerms(of source: StreamSource) -> CameraTerms?
    /// `kind` made for `variant` (a raw value as `printers.json` keeps it: one the dialog's variant
    /// row chose, or a discovered or edited printer's); `kind` as it is when the family has no
    /// variants or `variant` does not fit `kind`.
    func kind(_ kind: Printer.Kind, variant: String?) -> Printer.Kind
}

extension PrinterFamily {
    var variantKey: String? { nil }
    func variant(_ raw: String) -> String? { nil }
    var defaultVariant: String? { nil }
    var hasOwnCamera: Bool { false }
    var canGoWithoutCamera: Bool { false }
    var secretNoun: SecretsPlace.Noun? { nil }
    var fileSecretMark: FileSecretMark { .mask }
    var camerasOnNetwork: Bool { false }
    var discovery: (any FamilyDiscovery)? { nil }
    func statusEndpoint(of printer: Printer) -> StatusEndpoint? { nil }
    func ownCameraSource(of printer: Printer) throws -> StreamSource { try StreamSource.parse("") }

    func go2rtcSource(of printer: Printer, camera index: Int, among printers: [Printer]) -> Result<Go2RTCExport.Source, Go2RTCExport.Omission> {
        .failure(.noNetworkURL)
    }

    func formatTwoJoinKey(of printer: Printer) -> String? { nil }
    func cameraTerms(of source: StreamSource) -> CameraTerms? { nil }
    func kind(_ kind: Printer.Kind, variant: String?) -> Printer.Kind { kind }
}

/// A family whose status is an HTTP API on a host the user names, keyed by an API key (Klipper's
/// Moonraker, OctoPrint): the dialog's host, port and key fields read the same for each but for
/// the words.
protocol StatusAPIFamily: PrinterFamily {
    /// The API's usual port.
    var usualPort: Int { get }
    /// The hint under an empty host field.
    var emptyHostMessage: String { get }
    /// The message when the key is empty; nil when the API may go without one.
    var missingKeyMessage: String? { get }
    /// The message when the key has a space or a character no key has; nil for an API key's.
    var invalidKeyMessage: String? { get }
    /// The endpoint of the API at `host`, `port`, with `key` ("" for none).
    func statusEndpoint(host: String, port: Int, key: String) -> StatusEndpoint
}

extension StatusAPIFamily {
    var invalidKeyMessage: String? { nil }
    var canGoWithoutCamera: Bool { true }
    var secretNoun: SecretsPlace.Noun? { .apiKey }
    var camerasOnNetwork: Bool { true }

    func statusEndpoint(of printer: Printer) -> StatusEndpoint? {
        guard !printer.host.isEmpty else { return nil }
        return statusEndpoint(host: printer.host, port: printer.apiPort ?? usualPort, key: printer.accessCode)
    }

    func formatTwoJoinKey(of printer: Printer) -> String? {
        guard !printer.host.isEmpty else { return nil }
        return "\(printer.kind) \(printer.host.lowercased()) \(printer.apiPort.map(String.init) ?? "")"
    }

    func printer(from draft: PrinterDraft, name: String, messages: inout [PrinterDraft.Field: String]) -> Printer {
        draft.statusAPIPrinter(name: name, messages: &messages)
    }
}
