import Foundation

/// How a printer is written in `printers.json`: flat, readable keys, the model as the code its SSDP
/// announcement uses, the access code or API key only when there is one to keep in the file, and
/// the format-2 fields (API port, mounting, notifications, timelapse) only when not their defaults.
extension Printer: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, name, kind, model, host, apiPort, serial, url, accessCode, rotation, flipHorizontal, flipVertical, notifies, timelapse
    }

    private enum KindName: String, Codable {
        case bambuRTSPS, bambuJPEG, generic, klipper, octoprint
    }

    /// A printer needs its id, name and a kind this version knows (else it is left out, see
    /// `AppConfig.Reading`); every other field that is bad takes its default, the printer kept.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(UUID.self, forKey: .id)
        let name = try container.decode(String.self, forKey: .name)
        let kindName = try container.decode(KindName.self, forKey: .kind)
        let fields = LenientFields(container, owner: "printer “\(name)” \(id.uuidString)")
        // A model this version does not know yet is dropped, not a reason to leave the printer out.
        let model = fields.value(.model, as: String.self, BambuModel.init(rawValue:))
        let kind: Kind
        switch kindName {
        case .bambuRTSPS: kind = .bambuRTSPS(model)
        case .bambuJPEG: kind = .bambuJPEG(model)
        case .generic: kind = .generic
        case .klipper: kind = .klipper
        case .octoprint: kind = .octoprint
        }
        self.init(
            id: id,
            name: name,
            kind: kind,
            host: fields.value(.host) ?? "",
            apiPort: fields.value(.apiPort, as: Int.self) { (1...65535).contains($0) ? $0 : nil },
            serial: fields.value(.serial),
            url: fields.value(.url),
            accessCode: fields.value(.accessCode) ?? "",
            // Quarter turns only: anything else a hand-edited file holds is brought to the one below.
            rotation: fields.value(.rotation, as: Int.self) { ((($0 % 360) + 360) % 360) / 90 * 90 } ?? 0,
            flipHorizontal: fields.value(.flipHorizontal) ?? false,
            flipVertical: fields.value(.flipVertical) ?? false,
            notifies: fields.value(.notifies) ?? true,
            timelapse: fields.value(.timelapse, as: String.self, Timelapse.init(text:))
        )
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        switch kind {
        case .bambuRTSPS: try container.encode(KindName.bambuRTSPS, forKey: .kind)
        case .bambuJPEG: try container.encode(KindName.bambuJPEG, forKey: .kind)
        case .generic: try container.encode(KindName.generic, forKey: .kind)
        case .klipper: try container.encode(KindName.klipper, forKey: .kind)
        case .octoprint: try container.encode(KindName.octoprint, forKey: .kind)
        }
        try container.encodeIfPresent(kind.model?.rawValue, forKey: .model)
        if kind.isBambu || kind.hasStatusAPI { try container.encode(host, forKey: .host) }
        try container.encodeIfPresent(apiPort, forKey: .apiPort)
        try container.encodeIfPresent(serial, forKey: .serial)
        try container.encodeIfPresent(url, forKey: .url)
        if !accessCode.isEmpty { try container.encode(accessCode, forKey: .accessCode) }
        if rotation != 0 { try container.encode(rotation, forKey: .rotation) }
        if flipHorizontal { try container.encode(true, forKey: .flipHorizontal) }
        if flipVertical { try container.encode(true, forKey: .flipVertical) }
        if !notifies { try container.encode(false, forKey: .notifies) }
        try container.encodeIfPresent(timelapse, forKey: .timelapse)
    }
}
