import Foundation

/// How a printer is written in `printers.json`: flat, readable keys, the model as the code its SSDP
/// announcement uses, and the access code only when there is one to keep in the file.
extension Printer: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, name, kind, model, host, serial, url, accessCode
    }

    private enum KindName: String, Codable {
        case bambuRTSPS, bambuJPEG, generic
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
        }
        self.init(
            id: try container.decode(UUID.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            kind: kind,
            host: try container.decodeIfPresent(String.self, forKey: .host) ?? "",
            serial: try container.decodeIfPresent(String.self, forKey: .serial),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            accessCode: try container.decodeIfPresent(String.self, forKey: .accessCode) ?? ""
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
        }
        try container.encodeIfPresent(kind.model?.rawValue, forKey: .model)
        if kind.isBambu { try container.encode(host, forKey: .host) }
        try container.encodeIfPresent(serial, forKey: .serial)
        try container.encodeIfPresent(url, forKey: .url)
        if !accessCode.isEmpty { try container.encode(accessCode, forKey: .accessCode) }
    }
}
