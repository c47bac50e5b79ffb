import Foundation
import StreamKit

/// The add/edit dialog's fields as typed, checked all at once so the dialog can show a specific
/// message under each field that is wrong. Messages never contain the access code.
public struct PrinterDraft: Hashable, Sendable {
    /// A field of the dialog a message belongs to.
    public enum Field: Hashable, Sendable, CaseIterable {
        case kind, name, host, accessCode, serial, url
    }

    /// What is wrong with a draft, one message per field.
    public struct Problems: Error, Hashable, Sendable {
        public let messages: [Field: String]

        public subscript(field: Field) -> String? { messages[field] }
    }

    /// The printer's id: new for an added printer, kept when one is edited.
    public let id: UUID
    public var kind: Printer.Kind
    public var name: String
    public var host: String
    public var accessCode: String
    public var serial: String
    public var url: String

    public init(id: UUID = UUID(), kind: Printer.Kind, name: String = "", host: String = "",
                accessCode: String = "", serial: String = "", url: String = "") {
        self.id = id
        self.kind = kind
        self.name = name
        self.host = host
        self.accessCode = accessCode
        self.serial = serial
        self.url = url
    }

    /// The fields of an existing printer, for the edit dialog.
    public init(_ printer: Printer) {
        self.init(id: printer.id, kind: printer.kind, name: printer.name, host: printer.host,
                  accessCode: printer.accessCode, serial: printer.serial ?? "", url: printer.url ?? "")
    }

    /// The printer these fields describe (trimmed), or a message for every field that is wrong.
    public func validate() -> Result<Printer, Problems> {
        var messages: [Field: String] = [:]
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { messages[.name] = tr("Enter a name for this printer, for example “X1C workshop”.") }

        guard kind.isBambu else {
            let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
            do { _ = try StreamSource.parse(url) } catch { messages[.url] = error.description }
            guard messages.isEmpty else { return .failure(Problems(messages: messages)) }
            return .success(Printer(id: id, name: name, kind: kind, url: url))
        }

        if let mismatch = modelMismatch { messages[.kind] = mismatch }
        var host = ""
        do { host = try BambuCamera.validatedHost(self.host) } catch { messages[.host] = "\(error)" }
        var code = ""
        do { code = try BambuCamera.validatedAccessCode(accessCode) } catch { messages[.accessCode] = "\(error)" }
        let serial = serial.trimmingCharacters(in: .whitespaces)
        if !serial.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) {
            messages[.serial] = tr("A serial number has only letters A–Z and digits (it is on the printer's label); leave it empty if unsure.")
        }
        guard messages.isEmpty else { return .failure(Problems(messages: messages)) }
        return .success(Printer(id: id, name: name, kind: kind, host: host,
                                serial: serial.isEmpty ? nil : serial, accessCode: code))
    }

    /// A message when the chosen model's camera needs the other Bambu kind.
    private var modelMismatch: String? {
        guard let model = kind.model, Printer.Kind.bambu(model) != kind else { return nil }
        switch model.camera {
        case .rtsps:
            return String(format: tr("The %@ streams its camera over RTSPS: choose “Bambu Lab with RTSPS”."), model.displayName)
        case .jpegOverTLS:
            return String(format: tr("The %@ sends its camera as JPEG frames on port 6000: choose “Bambu Lab P1/A1”."), model.displayName)
        }
    }
}
