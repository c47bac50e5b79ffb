import Foundation

/// How a printer is written in `printers.json`: flat, readable keys, a Bambu model as the code its
/// SSDP announcement uses, a Creality printer's family (`k1`, `k2`; one this version does not know
/// is read as `k1`), the access code or API key only when there is one to keep in the file, its
/// cameras as a list (format 3; empty for a Klipper or OctoPrint printer without a camera), and the optional fields (API port, notifications, timelapse) only
/// when not their defaults. A format-1 or 2 printer had one camera in its own fields (`url`,
/// `rotation`, `flipHorizontal`, `flipVertical`): it is read as a printer with that one camera,
/// whose id is the printer's (`AppConfig.Reading` then joins the entries of one printer).
extension Printer: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, name, kind, model, family, host, apiPort, serial, accessCode, cameras, notifies, timelapse
        // Format 1 and 2: the one camera's fields.
        case url, rotation, flipHorizontal, flipVertical
    }

    /// A printer needs its id, name, a kind this version knows and a camera — but a Klipper or
    /// OctoPrint printer, which may go without (else it is left out, see `AppConfig.Reading`); every
    /// other field that is bad takes its default, the printer kept.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(UUID.self, forKey: .id)
        let name = try container.decode(String.self, forKey: .name)
        let kindName = try container.decode(String.self, forKey: .kind)
        guard let family = PrinterFamilies.family(kindName: kindName) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "a kind this version does not know")
        }
        let fields = LenientFields(container, owner: "printer “\(name)” \(id.uuidString)")
        let variant = family.variantKey.flatMap(CodingKeys.init(rawValue:)).flatMap { fields.value($0, as: String.self, family.variant) }
        let kind = Printer.Kind(family: family, name: kindName, variant: variant ?? family.defaultVariant)
        var cameras: [PrinterCamera]
        // An empty list is a Klipper or OctoPrint printer watched without a picture; a list none of
        // whose cameras can be read is not.
        var listsNone = false
        if container.contains(.cameras) {
            let listed = fields.value(.cameras, as: [Droppable<PrinterCamera>].self)
            listsNone = listed?.isEmpty ?? false
            cameras = PrinterCamera.kept((listed ?? []).compactMap(\.element))
            if cameras.isEmpty && kind.hasOwnCamera { cameras = [.own(id: id)] }
        } else {
            cameras = [PrinterCamera(id: id, url: fields.value(.url),
                                     rotation: fields.value(.rotation, as: Int.self, PrinterCamera.quarterTurns) ?? 0,
                                     flipHorizontal: fields.value(.flipHorizontal) ?? false,
                                     flipVertical: fields.value(.flipVertical) ?? false)]
        }
        guard !cameras.isEmpty || (listsNone && kind.canGoWithoutCamera) else {
            throw DecodingError.dataCorruptedError(forKey: .cameras, in: container, debugDescription: "a printer without a camera")
        }
        self.init(
            id: id,
            name: name,
            kind: kind,
            host: fields.value(.host) ?? "",
            apiPort: fields.value(.apiPort, as: Int.self) { (1...65535).contains($0) ? $0 : nil },
            serial: fields.value(.serial),
            accessCode: fields.value(.accessCode) ?? "",
            cameras: cameras,
            notifies: fields.value(.notifies) ?? true,
            timelapse: fields.value(.timelapse, as: String.self, Timelapse.init(text:))
        )
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(kind.name, forKey: .kind)
        if let key = kind.family.variantKey.flatMap(CodingKeys.init(rawValue:)) { try container.encodeIfPresent(kind.variant, forKey: key) }
        if kind != .generic { try container.encode(host, forKey: .host) }
        try container.encodeIfPresent(apiPort, forKey: .apiPort)
        try container.encodeIfPresent(serial, forKey: .serial)
        if !accessCode.isEmpty { try container.encode(accessCode, forKey: .accessCode) }
        try container.encode(cameras, forKey: .cameras)
        if !notifies { try container.encode(false, forKey: .notifies) }
        try container.encodeIfPresent(timelapse, forKey: .timelapse)
    }
}
