import Foundation
import StreamKit

/// A camera the user added: what a tab shows and what `printers.json` remembers. It keeps what the
/// user typed (not a built URL) so an edit dialog can show it again and a later format can change.
public struct Printer: Hashable, Identifiable, Sendable {
    /// How the printer's camera is reached; the add dialog's first choice.
    public enum Kind: Hashable, Sendable {
        /// Bambu Lab X1, X1C, X1E, P2S, H2D, H2S, H2C, X2D: RTSPS on port 322.
        case bambuRTSPS(BambuModel?)
        /// Bambu Lab P1 and A1 families: JPEG frames over TLS on port 6000.
        case bambuJPEG(BambuModel?)
        /// Any other camera, by URL: RTSP(S), HTTP MJPEG or a JPEG snapshot.
        case generic

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
            case .generic: return nil
            }
        }

        public var isBambu: Bool { self != .generic }
    }

    public let id: UUID
    public var name: String
    public var kind: Kind
    /// IP address or host name of a Bambu printer; empty for a generic camera.
    public var host: String
    public var serial: String?
    /// The camera URL of a generic camera; nil for Bambu printers.
    public var url: String?
    /// The Bambu LAN access code; empty for a generic camera or when the keyring could not give it.
    public var accessCode: String

    public init(id: UUID = UUID(), name: String, kind: Kind, host: String = "", serial: String? = nil,
                url: String? = nil, accessCode: String = "") {
        self.id = id
        self.name = name
        self.kind = kind
        self.host = host
        self.serial = serial
        self.url = url
        self.accessCode = accessCode
    }

    /// The stream to open for this printer; throws `BambuCamera.InputError` or `SourceError`,
    /// whose descriptions never contain the access code.
    public func source() throws -> StreamSource {
        switch kind {
        case .bambuRTSPS: return try BambuCamera.rtspsSource(host: host, accessCode: accessCode)
        case .bambuJPEG: return try BambuCamera.jpegSource(host: host, accessCode: accessCode)
        case .generic: return try StreamSource.parse(url ?? "")
        }
    }
}

extension Printer: CustomStringConvertible, CustomDebugStringConvertible {
    /// The printer for logs and test failures: the access code and any URL password masked.
    public var description: String {
        let url = url ?? ""
        let address = kind.isBambu ? host : (try? StreamSource.parse(url))?.description ?? Redactor.scrubUserInfo(url)
        let code = accessCode.isEmpty ? "" : ", code \(Redactor.mask)"
        return "Printer(\(name), \(kind), \(address)\(code), \(id))"
    }

    public var debugDescription: String { description }
}
