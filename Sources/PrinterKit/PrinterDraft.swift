import Foundation
import StatusKit
import StreamKit

/// The add/edit dialog's fields as typed, checked all at once so the dialog can show a specific
/// message under each field that is wrong. Messages never contain the access code or API key.
public struct PrinterDraft: Equatable, Sendable {
    /// A field of the dialog a message belongs to.
    public enum Field: Hashable, Sendable, CaseIterable {
        case kind, name, host, apiPort, user, accessCode, serial, url, cameras
    }

    /// What is wrong with a draft, one message per field.
    public struct Problems: Error, Hashable, Sendable {
        public let messages: [Field: String]

        public subscript(field: Field) -> String? { messages[field] }
    }

    /// The printer's id: new for an added printer, kept when one is edited (by the first printer
    /// when several cameras are chosen).
    public let id: UUID
    public var kind: Printer.Kind
    /// The dialog's "go2rtc restreamer" choice: the chosen streams become generic RTSP cameras,
    /// whatever `kind` says.
    public var isGo2RTC: Bool
    public var name: String
    /// The Bambu printer's address, or the Klipper, OctoPrint or go2rtc host's.
    public var host: String
    /// The Moonraker, OctoPrint or go2rtc API's port as typed, or a Bambu printer's MQTT port kept
    /// from the printer edited (the dialog has no field for it); empty for the usual one.
    public var apiPort: String
    /// go2rtc's API username, if it has one.
    public var user: String
    /// The Bambu access code, the Moonraker or OctoPrint API key, or go2rtc's API password (only
    /// for listing its streams: the cameras saved do not carry it).
    public var accessCode: String
    public var serial: String
    /// The camera URL of a generic camera, or of a Klipper or OctoPrint printer when no listed
    /// camera is chosen (editing one).
    public var url: String
    /// The cameras chosen from those a Klipper, OctoPrint or go2rtc host listed: one printer each.
    public var cameras: [ImportedCamera]
    /// How its camera is mounted, whether it notifies (kept from an edited printer) and its timelapse.
    public var rotation: Int
    public var flipHorizontal: Bool
    public var flipVertical: Bool
    public var notifies: Bool
    public var timelapse: Timelapse?

    public init(id: UUID = UUID(), kind: Printer.Kind, isGo2RTC: Bool = false, name: String = "", host: String = "",
                apiPort: String = "", user: String = "", accessCode: String = "", serial: String = "", url: String = "",
                cameras: [ImportedCamera] = [],
                rotation: Int = 0, flipHorizontal: Bool = false, flipVertical: Bool = false, notifies: Bool = true,
                timelapse: Timelapse? = nil) {
        self.id = id
        self.kind = kind
        self.isGo2RTC = isGo2RTC
        self.name = name
        self.host = host
        self.apiPort = apiPort
        self.user = user
        self.accessCode = accessCode
        self.serial = serial
        self.url = url
        self.cameras = cameras
        self.rotation = rotation
        self.flipHorizontal = flipHorizontal
        self.flipVertical = flipVertical
        self.notifies = notifies
        self.timelapse = timelapse
    }

    /// The fields of an existing printer, for the edit dialog.
    public init(_ printer: Printer) {
        self.init(id: printer.id, kind: printer.kind, name: printer.name, host: printer.host,
                  apiPort: printer.apiPort.map(String.init) ?? "", accessCode: printer.accessCode,
                  serial: printer.serial ?? "", url: printer.url ?? "", rotation: printer.rotation,
                  flipHorizontal: printer.flipHorizontal, flipVertical: printer.flipVertical, notifies: printer.notifies,
                  timelapse: printer.timelapse)
    }

    /// The printer these fields describe, the first when several cameras are chosen.
    public func validate() -> Result<Printer, Problems> {
        printers().map { $0[0] }
    }

    /// The printers these fields describe (trimmed): one, or for a Klipper, OctoPrint or go2rtc host
    /// one per chosen camera; else a message for every field that is wrong.
    public func printers() -> Result<[Printer], Problems> {
        var messages: [Field: String] = [:]
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty && !isGo2RTC { messages[.name] = tr("Enter a name for this printer, for example “X1C workshop”.") }
        let printers: [Printer]
        switch kind {
        case _ where isGo2RTC: printers = go2rtcPrinters(name: name, messages: &messages)
        case .bambuRTSPS, .bambuJPEG: printers = bambuPrinter(name: name, messages: &messages)
        case .generic: printers = cameraPrinter(name: name, messages: &messages)
        case .klipper, .octoprint: printers = statusAPIPrinters(name: name, messages: &messages)
        }
        guard messages.isEmpty else { return .failure(Problems(messages: messages)) }
        return .success(printers)
    }

    /// Where a Klipper or OctoPrint printer's API is (what finds its cameras), or a message for each
    /// of the host, port and key that is wrong.
    public func statusEndpoint() -> Result<StatusEndpoint, Problems> {
        var messages: [Field: String] = [:]
        let endpoint = statusEndpoint(messages: &messages)
        guard let endpoint, messages.isEmpty else { return .failure(Problems(messages: messages)) }
        return .success(endpoint)
    }

    // MARK: Private

    /// A chosen camera's printer name: the printer's own when it is the only one.
    static func printerName(_ name: String, camera: ImportedCamera, of count: Int) -> String {
        count == 1 ? name : "\(name) — \(camera.name)"
    }

    private func bambuPrinter(name: String, messages: inout [Field: String]) -> [Printer] {
        if let mismatch = modelMismatch { messages[.kind] = mismatch }
        var host = ""
        do { host = try BambuCamera.validatedHost(self.host) } catch { messages[.host] = "\(error)" }
        var code = ""
        do { code = try BambuCamera.validatedAccessCode(accessCode) } catch { messages[.accessCode] = "\(error)" }
        let serial = serial.trimmingCharacters(in: .whitespaces)
        if !serial.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) {
            messages[.serial] = tr("A serial number has only letters A–Z and digits (it is on the printer's label); leave it empty if unsure.")
        }
        let port = Int(apiPort.trimmingCharacters(in: .whitespaces)).flatMap {
            (1...65535).contains($0) && $0 != StatusEndpoint.bambuPort ? $0 : nil
        }
        return [kept(Printer(id: id, name: name, kind: kind, host: host, apiPort: port, serial: serial.isEmpty ? nil : serial,
                             accessCode: code))]
    }

    private func cameraPrinter(name: String, messages: inout [Field: String]) -> [Printer] {
        let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        do { _ = try StreamSource.parse(url) } catch { messages[.url] = error.description }
        return [kept(Printer(id: id, name: name, kind: kind, url: url))]
    }

    /// One printer per chosen camera, or one for the typed URL when none is chosen; each with the
    /// same host, port and key.
    private func statusAPIPrinters(name: String, messages: inout [Field: String]) -> [Printer] {
        let endpoint = statusEndpoint(messages: &messages)
        let port: Int? = switch endpoint {
        case .moonraker(_, let port, _)?: port == StatusEndpoint.moonrakerPort ? nil : port
        case .octoprint(_, let port, _)?: port == StatusEndpoint.octoprintPort ? nil : port
        default: nil
        }
        let host = endpoint?.host ?? ""
        let key = accessCode.trimmingCharacters(in: .whitespaces)
        guard !cameras.isEmpty else {
            let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
            if url.isEmpty {
                messages[.cameras] = tr("Check at least one camera: “Find Cameras” lists the ones this printer has.")
            } else {
                do {
                    _ = try StreamSource.parse(url)
                    // A printer's camera is on the network: a file or another kind of URL is refused here.
                    if let refusal = NetworkCamera.refusal(url) {
                        messages[.url] = String(format: tr("This is %@: a printer's camera is an rtsp://, rtsps://, http:// or https:// address."), refusal)
                    }
                } catch {
                    messages[.url] = error.description
                }
            }
            return [kept(Printer(id: id, name: name, kind: kind, host: host, apiPort: port, url: url, accessCode: key))]
        }
        var unplayable: [String] = []
        var printers: [Printer] = []
        for camera in cameras {
            if let refusal = camera.refusal { unplayable.append(String(format: tr("“%@”: %@"), camera.name, refusal)) }
            printers.append(Printer(id: printers.isEmpty ? id : UUID(), name: Self.printerName(name, camera: camera, of: cameras.count),
                                    kind: kind, host: host, apiPort: port, url: camera.url, accessCode: key,
                                    rotation: camera.rotation, flipHorizontal: camera.flipHorizontal,
                                    flipVertical: camera.flipVertical, notifies: notifies, timelapse: timelapse))
        }
        if !unplayable.isEmpty { messages[.cameras] = unplayable.joined(separator: "\n") }
        return printers
    }

    private func statusEndpoint(messages: inout [Field: String]) -> StatusEndpoint? {
        let moonraker = kind == .klipper
        var host = ""
        do {
            host = try BambuCamera.validatedHost(self.host)
        } catch BambuCamera.InputError.emptyHost {
            messages[.host] = moonraker
                ? tr("Enter the address of the computer running Klipper (the one you open Mainsail or Fluidd at).")
                : tr("Enter the address of the computer running OctoPrint (the one you open OctoPrint at).")
        } catch {
            messages[.host] = "\(error)"
        }
        let port = typedPort(usual: moonraker ? StatusEndpoint.moonrakerPort : StatusEndpoint.octoprintPort, messages: &messages)
        let key = accessCode.trimmingCharacters(in: .whitespaces)
        if !key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) {
            messages[.accessCode] = tr("An API key has only letters, digits and punctuation, no spaces: copy it again.")
        } else if key.isEmpty && !moonraker {
            messages[.accessCode] = tr("Enter OctoPrint's API key (in OctoPrint: Settings → Application Keys).")
        }
        guard !host.isEmpty else { return nil }
        return moonraker ? .moonraker(host: host, port: port, apiKey: key.isEmpty ? nil : key)
                         : .octoprint(host: host, port: port, apiKey: key)
    }

    /// The API port typed, `usual` when the field is empty.
    func typedPort(usual: Int, messages: inout [Field: String]) -> Int {
        let text = apiPort.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return usual }
        if let typed = Int(text), (1...65535).contains(typed) { return typed }
        messages[.apiPort] = String(format: tr("A port is a number from 1 to 65535; leave it empty for %ld."), usual)
        return usual
    }

    /// `printer` with the draft's mounting, notification switch and timelapse.
    private func kept(_ printer: Printer) -> Printer {
        var printer = printer
        printer.rotation = rotation
        printer.flipHorizontal = flipHorizontal
        printer.flipVertical = flipVertical
        printer.notifies = notifies
        printer.timelapse = printer.kind == .generic ? nil : timelapse  // a plain camera has no print to follow
        return printer
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
