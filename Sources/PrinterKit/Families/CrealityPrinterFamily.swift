import Foundation
import StatusKit
import StreamKit

/// The Creality family as a saved printer (K1, K2, Hi, Ender-3 V3 families): its own camera reached
/// as its family streams it, any others by URL, its status from its LAN websocket on its host; its
/// family as `printers.json`'s `family` (one this version does not know is read as `k1`).
struct CrealityPrinterFamily: PrinterFamily {
    static let name = "creality"

    let kindNames = [Self.name]
    let variantKey: String? = "family"
    let defaultVariant: String? = CrealityFamily.k1.rawValue
    let hasOwnCamera = true
    let camerasOnNetwork = true

    func variant(_ raw: String) -> String? { CrealityFamily(rawValue: raw)?.rawValue }

    func displayName(of kind: Printer.Kind) -> String? { "Creality" }

    func statusEndpoint(of printer: Printer) -> StatusEndpoint? {
        guard !printer.host.isEmpty else { return nil }
        return .creality(host: printer.host, port: printer.apiPort ?? StatusEndpoint.crealityPort)
    }

    func ownCameraSource(of printer: Printer) throws -> StreamSource {
        try StreamSource.parse(printer.kind.creality.cameraURL(host: BambuCamera.validatedHost(printer.host)))
    }

    /// go2rtc reads both: the K1 family's MJPEG, the K2 family's `webrtc:…#format=creality`.
    func go2rtcSource(of printer: Printer, camera index: Int, among printers: [Printer]) -> Result<Go2RTCExport.Source, Go2RTCExport.Omission> {
        guard let host = try? BambuCamera.validatedHost(printer.host) else { return .failure(.invalidAddress) }
        return .success(Go2RTCExport.Source(url: printer.kind.creality.cameraURL(host: host)))
    }

    func printer(from draft: PrinterDraft, name: String, messages: inout [PrinterDraft.Field: String]) -> Printer {
        draft.addressPrinter(name: name, usualPort: StatusEndpoint.crealityPort, messages: &messages)
    }

    /// The family `variant` names; the first (`k1`) for none this version knows.
    func kind(_ kind: Printer.Kind, variant: String?) -> Printer.Kind {
        .creality(variant.flatMap(CrealityFamily.init(rawValue:)) ?? .k1)
    }
}

extension Printer.Kind {
    /// A Creality printer of `family`.
    public static func creality(_ family: CrealityFamily) -> Printer.Kind {
        Printer.Kind(family: CrealityPrinterFamily(), name: CrealityPrinterFamily.name, variant: family.rawValue)
    }

    /// The Creality printer's family; nil for other kinds.
    public var crealityFamily: CrealityFamily? {
        family is CrealityPrinterFamily ? creality : nil
    }

    /// A Creality kind's family (`k1` when its variant is unknown).
    fileprivate var creality: CrealityFamily { variant.flatMap(CrealityFamily.init(rawValue:)) ?? .k1 }
}
