import Foundation
import StatusKit
import StreamKit

/// A printer the user added: one status endpoint (or none, for a plain camera) and its cameras in
/// order; what a tab shows and what `printers.json` remembers. It keeps what the user typed (not a
/// built URL) so an edit dialog can show it again and a later format can change.
public struct Printer: Hashable, Identifiable, Sendable {
    /// How the printer's camera is reached; the add dialog's first choice.
    public enum Kind: Hashable, Sendable {
        /// Bambu Lab X1, X1C, X1E, P2S, H2D, H2S, H2C, X2D: RTSPS on port 322.
        case bambuRTSPS(BambuModel?)
        /// Bambu Lab P1 and A1 families: JPEG frames over TLS on port 6000.
        case bambuJPEG(BambuModel?)
        /// Any other camera, by URL: RTSP(S), HTTP MJPEG or a JPEG snapshot; no print status.
        case generic
        /// A Klipper printer: its cameras by URL, its status from Moonraker on `host`.
        case klipper
        /// An OctoPrint printer: its cameras by URL, its status from OctoPrint on `host`.
        case octoprint
        /// A Creality printer (K1, K2, Hi, Ender-3 V3 families): its own camera reached as its family
        /// streams it, any others by URL, its status from its LAN websocket on `host`.
        case creality(CrealityFamily)

        /// The kind a Bambu model's camera needs (for discovery, which knows the model).
        public static func bambu(_ model: BambuModel) -> Kind {
            switch model.camera {
            case .rtsps: return .bambuRTSPS(model)
            case .jpegOverTLS: return .bambuJPEG(model)
            }
        }

        public var model: BambuModel? {
            switch self {
            case .bambuRTSPS(let model), .bambuJPEG(let model): return model
            case .generic, .klipper, .octoprint, .creality: return nil
            }
        }

        public var isBambu: Bool {
            switch self {
            case .bambuRTSPS, .bambuJPEG: return true
            case .generic, .klipper, .octoprint, .creality: return false
            }
        }

        /// The Creality printer's family; nil for other kinds.
        public var crealityFamily: CrealityFamily? {
            if case .creality(let family) = self { return family }
            return nil
        }

        /// True for printers whose own camera is reached from their address (Bambu, Creality): it
        /// has no URL, is listed first and cannot be removed.
        public var hasOwnCamera: Bool { isBambu || crealityFamily != nil }

        /// True for printers whose status comes from an HTTP API (Moonraker, OctoPrint).
        public var hasStatusAPI: Bool { self == .klipper || self == .octoprint }

        /// True for printers that may have no camera: their status connection owes nothing to a
        /// camera (Klipper, OctoPrint), so they are watched without a picture. A Bambu or Creality
        /// printer always has its own camera; a camera by URL is nothing without one.
        public var canGoWithoutCamera: Bool { hasStatusAPI }
    }

    public let id: UUID
    public var name: String
    public var kind: Kind
    /// IP address or host name of a Bambu or Creality printer, or of a Klipper or OctoPrint host's
    /// API; empty for a generic camera.
    public var host: String
    /// The status API's port when not the usual one (Bambu MQTT 8883, Moonraker 7125, OctoPrint 80,
    /// Creality's websocket 9999).
    public var apiPort: Int?
    public var serial: String?
    /// The Bambu LAN access code, or the Moonraker or OctoPrint API key; empty when there is none or
    /// the keyring could not give it.
    public var accessCode: String
    /// Its cameras in the order the tab's switcher lists them; the tab shows the first at start,
    /// and its farm tile and mini window the one the tab shows. A Bambu printer's own camera has
    /// no URL, nor has a Creality printer's; made without cameras, such a printer has its own. Empty
    /// for a Klipper or OctoPrint printer watched without a picture (`Kind.canGoWithoutCamera`).
    public var cameras: [PrinterCamera]
    /// Whether a finished, failed or paused print on this printer raises a desktop notification.
    public var notifies: Bool
    /// Whether its prints get a timelapse, and when it takes its pictures; nil: none.
    public var timelapse: Timelapse?

    public init(id: UUID = UUID(), name: String, kind: Kind, host: String = "", apiPort: Int? = nil,
                serial: String? = nil, accessCode: String = "", cameras: [PrinterCamera] = [], notifies: Bool = true,
                timelapse: Timelapse? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.host = host
        self.apiPort = apiPort
        self.serial = serial
        self.accessCode = accessCode
        self.cameras = cameras.isEmpty && kind.hasOwnCamera ? [.own()] : cameras
        self.notifies = notifies
        self.timelapse = timelapse
    }

    /// Where this printer's print status comes from; nil for a plain camera, or a Bambu printer
    /// whose access code is missing.
    public var statusEndpoint: StatusEndpoint? {
        switch kind {
        case .bambuRTSPS, .bambuJPEG:
            guard !host.isEmpty, !accessCode.isEmpty else { return nil }
            return .bambu(host: host, port: apiPort ?? StatusEndpoint.bambuPort, accessCode: accessCode, serial: serial)
        case .klipper:
            guard !host.isEmpty else { return nil }
            return .moonraker(host: host, port: apiPort ?? StatusEndpoint.moonrakerPort, apiKey: accessCode.isEmpty ? nil : accessCode)
        case .octoprint:
            guard !host.isEmpty else { return nil }
            return .octoprint(host: host, port: apiPort ?? StatusEndpoint.octoprintPort, apiKey: accessCode)
        case .creality:
            guard !host.isEmpty else { return nil }
            return .creality(host: host, port: apiPort ?? StatusEndpoint.crealityPort)
        case .generic:
            return nil
        }
    }

    /// The stream to open for `camera`, one of its cameras: its URL, or a Bambu printer's own
    /// camera from its address and code, a Creality printer's from its address and family; throws
    /// `BambuCamera.InputError` or `SourceError`, whose descriptions never contain the access code
    /// or a password.
    public func source(of camera: PrinterCamera) throws -> StreamSource {
        if let source = try camera.source() { return source }
        switch kind {
        case .bambuRTSPS: return try BambuCamera.rtspsSource(host: host, accessCode: accessCode)
        case .bambuJPEG: return try BambuCamera.jpegSource(host: host, accessCode: accessCode)
        case .creality(let family): return try StreamSource.parse(family.cameraURL(host: BambuCamera.validatedHost(host)))
        case .generic, .klipper, .octoprint: return try StreamSource.parse("")
        }
    }

    /// The camera with `id`, if the printer has it.
    public func camera(id: UUID) -> PrinterCamera? {
        cameras.first { $0.id == id }
    }

    /// Its name with `camera`'s when it has more than one: for file names and titles that must say
    /// which camera ("Voron — Nozzle").
    public func name(with camera: PrinterCamera) -> String {
        guard cameras.count > 1, let index = cameras.firstIndex(where: { $0.id == camera.id }) else { return name }
        return "\(name) — \(camera.title(at: index))"
    }
}

extension Printer: CustomStringConvertible, CustomDebugStringConvertible {
    /// The printer for logs and test failures: the access code and any URL password masked.
    public var description: String {
        let urls = cameras.compactMap(\.url).map { (try? StreamSource.parse($0))?.description ?? Redactor.scrubUserInfo($0) }
        let address = ((kind == .generic ? [] : [host]) + urls).joined(separator: ", ")
        let code = accessCode.isEmpty ? "" : ", code \(Redactor.mask)"
        return "Printer(\(name), \(kind), \(address)\(code), \(id))"
    }

    public var debugDescription: String { description }
}
