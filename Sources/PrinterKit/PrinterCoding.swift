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

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A model this version does not know yet is dropped, not a reason to reject the whole file.
        let model = try container.decodeIfPresent(String.self, forKey: .model).flatMap(BambuModel.init(rawValue:))
        let kind: Kind
        switch try container.decode(KindName.self, forKey: .kind) {
        case .bambuRTSPS: kind = .bambuRTSPS(model)
        case .bambuJPEG: kind = .bambuJPEG(model)
        case .generic: kind = .generic
        case .klipper: kind = .klipper
        case .octoprint: kind = .octoprint
        }
        let rotation = try container.decodeIfPresent(Int.self, forKey: .rotation) ?? 0
        self.init(
            id: try container.decode(UUID.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            kind: kind,
            host: try container.decodeIfPresent(String.self, forKey: .host) ?? "",
            apiPort: try container.decodeIfPresent(Int.self, forKey: .apiPort).flatMap { (1...65535).contains($0) ? $0 : nil },
            serial: try container.decodeIfPresent(String.self, forKey: .serial),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            accessCode: try container.decodeIfPresent(String.self, forKey: .accessCode) ?? "",
            // Quarter turns only: anything else a hand-edited file holds is brought to the one below.
            rotation: ((rotation % 360) + 360) % 360 / 90 * 90,
            flipHorizontal: try container.decodeIfPresent(Bool.self, forKey: .flipHorizontal) ?? false,
            flipVertical: try container.decodeIfPresent(Bool.self, forKey: .flipVertical) ?? false,
            notifies: try container.decodeIfPresent(Bool.self, forKey: .notifies) ?? true,
            // A setting this version does not understand means no timelapse, not a rejected file.
            timelapse: (try? container.decodeIfPresent(String.self, forKey: .timelapse)).flatMap { $0.flatMap(Timelapse.init(text:)) }
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
