import Foundation
import StatusKit
import StreamKit

/// A printer the user added: one status endpoint (or none, for a plain camera) and its cameras in
/// order; what a tab shows and what `printers.json` remembers. It keeps what the user typed (not a
/// built URL) so an edit dialog can show it again and a later format can change.
public struct Printer: Hashable, Identifiable, Sendable {
    /// How the printer's camera and status are reached; the add dialog's first choice. A family
    /// (`PrinterFamilies`) and that family's variant; each family's file gives its constructors
    /// (`.bambuRTSPS(model)`, `.klipper`, `.creality(.k1)`, `.generic`…) and its own accessors.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        let family: any PrinterFamily
        /// Its name in `printers.json` (`bambuRTSPS`, `klipper`…), one kind's alone.
        let name: String
        /// The family's variant as `printers.json` keeps it (a Bambu model's code, a Creality
        /// printer's family); nil when it has none.
        public let variant: String?

        init(family: any PrinterFamily, name: String, variant: String? = nil) {
            self.family = family
            self.name = name
            self.variant = variant
        }

        public static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.name == rhs.name && lhs.variant == rhs.variant }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(variant)
        }

        public var description: String { variant.map { "\(name)(\($0))" } ?? name }

        /// True for printers whose own camera is reached from their address (Bambu, Creality): it
        /// has no URL, is listed first and cannot be removed.
        public var hasOwnCamera: Bool { family.hasOwnCamera }

        /// True for printers that may have no camera: their status connection owes nothing to a
        /// camera (Klipper, OctoPrint…), so they are watched without a picture. A Bambu or Creality
        /// printer always has its own camera; a camera by URL is nothing without one.
        public var canGoWithoutCamera: Bool { family.canGoWithoutCamera }

        /// What the printer's secret (`accessCode`) is called: an access code (Bambu), an API key
        /// (Klipper, OctoPrint); nil when it has none.
        public var secretNoun: SecretsPlace.Noun? { family.secretNoun }

        /// What the window's subtitle calls a printer of this kind: its Bambu model, else its
        /// family; nil for a camera by URL.
        public var displayName: String? { family.displayName(of: self) }

        /// True when discovery finds printers of this kind on the network (Bambu's SSDP): the add
        /// dialog lists them.
        public var isDiscovered: Bool { family.discovery != nil }

        /// True when `other` is of this kind's family (a Bambu RTSPS and a Bambu P1/A1 kind are).
        public func isOfFamily(of other: Kind) -> Bool { family.kindNames == other.family.kindNames }

        /// The kind as the dialog's choices have it: no Bambu model, the first Creality family.
        public var withoutVariant: Kind { Kind(family: family, name: name, variant: family.defaultVariant) }

        /// This kind made for `variant` (a raw value as `variant` has it), as the dialog chose it or
        /// kept it from a discovered or edited printer: its family says whether and how it fits
        /// (a Bambu model only when its camera is this kind's).
        public func choosing(variant: String?) -> Kind {
            family.kind(self, variant: variant)
        }
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
    public var statusEndpoint: StatusEndpoint? { kind.family.statusEndpoint(of: self) }

    /// The stream to open for `camera`, one of its cameras: its URL, or a Bambu printer's own
    /// camera from its address and code, a Creality printer's from its address and family; throws
    /// `BambuCamera.InputError` or `SourceError`, whose descriptions never contain the access code
    /// or a password.
    public func source(of camera: PrinterCamera) throws -> StreamSource {
        if let source = try camera.source() { return source }
        return try kind.family.ownCameraSource(of: self)
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
