import Foundation
import StatusKit
import StreamKit

/// The add/edit dialog's fields as typed, checked all at once so the dialog can show a specific
/// message under each field that is wrong. Messages never contain the access code or API key.
public struct PrinterDraft: Equatable, Sendable {
    /// A field of the dialog a message belongs to (`model`: a Creality printer's family).
    public enum Field: Hashable, Sendable, CaseIterable {
        case kind, name, host, model, apiPort, user, accessCode, serial, url, cameras
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
    /// The Bambu or Creality printer's address, or the Klipper, OctoPrint or go2rtc host's.
    public var host: String
    /// The Moonraker, OctoPrint or go2rtc API's port as typed, or a Bambu printer's MQTT port or a
    /// Creality printer's websocket port kept from the printer edited (the dialog has no field for
    /// them); empty for the usual one.
    public var apiPort: String
    /// go2rtc's API username, if it has one.
    public var user: String
    /// The Bambu access code, the Moonraker or OctoPrint API key, or go2rtc's API password (only
    /// for listing its streams: the cameras saved do not carry it).
    public var accessCode: String
    public var serial: String
    /// The printer's cameras as the dialog lists them: an edited printer's, those found on a
    /// Klipper, OctoPrint or go2rtc host and checked, those added by URL. One with no URL is left
    /// out (a row added and never filled in), but a Bambu printer's own camera.
    public var cameras: [PrinterCamera]
    /// Whether it notifies (kept from an edited printer) and its timelapse.
    public var notifies: Bool
    public var timelapse: Timelapse?

    public init(id: UUID = UUID(), kind: Printer.Kind, isGo2RTC: Bool = false, name: String = "", host: String = "",
                apiPort: String = "", user: String = "", accessCode: String = "", serial: String = "",
                cameras: [PrinterCamera] = [], notifies: Bool = true, timelapse: Timelapse? = nil) {
        self.id = id
        self.kind = kind
        self.isGo2RTC = isGo2RTC
        self.name = name
        self.host = host
        self.apiPort = apiPort
        self.user = user
        self.accessCode = accessCode
        self.serial = serial
        self.cameras = cameras
        self.notifies = notifies
        self.timelapse = timelapse
    }

    /// The fields of an existing printer, for the edit dialog.
    public init(_ printer: Printer) {
        self.init(id: printer.id, kind: printer.kind, name: printer.name, host: printer.host,
                  apiPort: printer.apiPort.map(String.init) ?? "", accessCode: printer.accessCode,
                  serial: printer.serial ?? "", cameras: printer.cameras, notifies: printer.notifies,
                  timelapse: printer.timelapse)
    }

    /// The printer these fields describe, the first of go2rtc's streams.
    public func validate() -> Result<Printer, Problems> {
        printers().map { $0[0] }
    }

    /// The printer these fields describe (trimmed), with its cameras — or for go2rtc, whose streams
    /// may be any printers' cameras, a plain camera per stream; else a message for every field that
    /// is wrong.
    public func printers() -> Result<[Printer], Problems> {
        var messages: [Field: String] = [:]
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty && !isGo2RTC { messages[.name] = tr("Enter a name for this printer, for example “X1C workshop”.") }
        let printers = isGo2RTC ? go2rtcPrinters(name: name, messages: &messages)
                                : [kind.family.printer(from: self, name: name, messages: &messages)]
        guard messages.isEmpty else { return .failure(Problems(messages: messages)) }
        return .success(printers)
    }

    /// Where the printer's status API is (what finds its cameras: a Klipper or OctoPrint host, a
    /// printer that names its own camera), or a message for each of the fields it is made of
    /// (host, port, key or code, serial number) that is wrong; its cameras are not asked.
    public func statusEndpoint() -> Result<StatusEndpoint, Problems> {
        var messages: [Field: String] = [:]
        let endpoint: StatusEndpoint?
        if kind.family is any StatusAPIFamily {
            endpoint = statusEndpoint(messages: &messages)
        } else {
            endpoint = kind.family.printer(from: self, name: name, messages: &messages).statusEndpoint
            messages = messages.filter { [.host, .apiPort, .accessCode, .serial].contains($0.key) }
        }
        guard let endpoint, messages.isEmpty else { return .failure(Problems(messages: messages)) }
        return .success(endpoint)
    }

    // MARK: What the families make of the fields

    /// The cameras with their URLs trimmed, those without one left out (a Bambu or Creality
    /// printer's own camera kept, first; none is fine for a Klipper or OctoPrint printer, a camera
    /// by URL needs its URL); a message for each URL that cannot be played — under the
    /// URL field for a printer's only camera, else in the camera list, naming the camera. A
    /// printer's camera (Klipper, OctoPrint, Creality) must be on the network; a WebRTC (WHEP)
    /// address without `webrtc:` would only fail with HTTP 405.
    func checkedCameras(messages: inout [Field: String]) -> [PrinterCamera] {
        var cameras = self.cameras.compactMap { camera -> PrinterCamera? in
            guard let url = camera.url?.trimmingCharacters(in: .whitespacesAndNewlines) else { return kind.hasOwnCamera ? camera : nil }
            var camera = camera
            camera.url = url
            return url.isEmpty ? nil : camera
        }
        if kind.hasOwnCamera {
            // The printer's own camera: exactly one, first.
            let own = cameras.first { $0.url == nil } ?? .own()
            cameras = [own] + cameras.filter { $0.url != nil }
        }
        guard !cameras.isEmpty else {
            // A Klipper or OctoPrint printer without a camera is watched without a picture.
            if !kind.canGoWithoutCamera {
                do { _ = try StreamSource.parse("") } catch { messages[.url] = error.description }
            }
            return []
        }
        var problems: [String] = []
        for (index, camera) in cameras.enumerated() {
            guard let url = camera.url else { continue }
            var problem: String?
            do {
                _ = try StreamSource.parse(url)
                if WHEPAddress.looksLikeWHEP(url) {
                    problem = StreamFailure.webRTCAddress.userMessage
                } else if kind.family.camerasOnNetwork, let refusal = NetworkCamera.refusal(url) {
                    problem = String(format: tr("This is %@: a printer's camera is an rtsp://, rtsps://, http://, https:// or webrtc: address."), refusal)
                }
            } catch {
                problem = error.description
            }
            guard let problem else { continue }
            problems.append(cameras.count == 1 ? problem : String(format: tr("“%@”: %@"), camera.title(at: index), problem))
        }
        if !problems.isEmpty { messages[cameras.count == 1 ? .url : .cameras] = problems.joined(separator: "\n") }
        return cameras
    }

    /// The Klipper or OctoPrint printer: its API's host, port and key, and its cameras.
    func statusAPIPrinter(name: String, messages: inout [Field: String]) -> Printer {
        let endpoint = statusEndpoint(messages: &messages)
        let port = endpoint.flatMap { $0.port == $0.usualPort ? nil : $0.port }
        return kept(Printer(id: id, name: name, kind: kind, host: endpoint?.host ?? "", apiPort: port,
                            accessCode: accessCode.trimmingCharacters(in: .whitespaces), cameras: checkedCameras(messages: &messages)))
    }

    private func statusEndpoint(messages: inout [Field: String]) -> StatusEndpoint? {
        guard let family = kind.family as? any StatusAPIFamily else { return nil }
        var host = ""
        do {
            host = try BambuCamera.validatedHost(self.host)
        } catch BambuCamera.InputError.emptyHost {
            messages[.host] = family.emptyHostMessage
        } catch {
            messages[.host] = "\(error)"
        }
        let port = typedPort(usual: family.usualPort, messages: &messages)
        let key = accessCode.trimmingCharacters(in: .whitespaces)
        if !key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) {
            messages[.accessCode] = family.invalidKeyMessage ?? tr("An API key has only letters, digits and punctuation, no spaces: copy it again.")
        } else if key.isEmpty, let missing = family.missingKeyMessage {
            messages[.accessCode] = missing
        }
        guard !host.isEmpty else { return nil }
        return family.statusEndpoint(host: host, port: port, key: key)
    }

    /// A printer reached at its address without a login (Creality, Elegoo): its address, its API
    /// port (`usualPort` is kept as none), and its cameras (its own first).
    func addressPrinter(name: String, usualPort: Int, messages: inout [Field: String]) -> Printer {
        var host = ""
        do { host = try BambuCamera.validatedHost(self.host) } catch { messages[.host] = "\(error)" }
        let port = typedPort(usual: usualPort, messages: &messages)
        return kept(Printer(id: id, name: name, kind: kind, host: host, apiPort: port == usualPort ? nil : port,
                            cameras: checkedCameras(messages: &messages)))
    }

    /// The API port typed, `usual` when the field is empty.
    func typedPort(usual: Int, messages: inout [Field: String]) -> Int {
        let text = apiPort.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return usual }
        if let typed = Int(text), (1...65535).contains(typed) { return typed }
        messages[.apiPort] = String(format: tr("A port is a number from 1 to 65535; leave it empty for %ld."), usual)
        return usual
    }

    /// `printer` with the draft's notification switch and timelapse.
    func kept(_ printer: Printer) -> Printer {
        var printer = printer
        printer.notifies = notifies
        printer.timelapse = printer.kind == .generic ? nil : timelapse  // a plain camera has no print to follow
        return printer
    }
}
