import Foundation
import StatusKit
import StreamKit

/// The Elegoo family as a saved printer (the Centauri Carbon, SDCP V3): its status from the SDCP
/// websocket on its address, and its own camera, the MJPEG stream on port 3031 that its status
/// connection turns on (../shared/PROTOCOLS.md §11), any others by URL. No login, no secret;
/// found on the network by `ElegooDiscovery`.
struct ElegooPrinterFamily: PrinterFamily {
    static let name = "elegoo"

    let kindNames = [Self.name]
    let hasOwnCamera = true
    let camerasOnNetwork = true
    /// Its printers answer `M99999` on UDP port 3000 (`ElegooDiscovery`).
    let discovery: (any FamilyDiscovery)? = ElegooDiscovery()

    func displayName(of kind: Printer.Kind) -> String? { "Elegoo Centauri Carbon" }

    func statusEndpoint(of printer: Printer) -> StatusEndpoint? {
        guard !printer.host.isEmpty else { return nil }
        return .elegoo(host: printer.host, port: printer.apiPort ?? StatusEndpoint.elegooPort)
    }

    func ownCameraSource(of printer: Printer) throws -> StreamSource {
        try StreamSource.parse(Self.cameraURL(host: BambuCamera.validatedHost(printer.host)))
    }

    func go2rtcSource(of printer: Printer, camera index: Int, among printers: [Printer]) -> Result<Go2RTCExport.Source, Go2RTCExport.Omission> {
        guard let host = try? BambuCamera.validatedHost(printer.host) else { return .failure(.invalidAddress) }
        return .success(Go2RTCExport.Source(url: Self.cameraURL(host: host)))
    }

    func printer(from draft: PrinterDraft, name: String, messages: inout [PrinterDraft.Field: String]) -> Printer {
        draft.addressPrinter(name: name, usualPort: StatusEndpoint.elegooPort, messages: &messages)
    }

    /// The camera of the printer at `host` (an IPv6 address bracketed): what `VideoUrl` names,
    /// with its scheme.
    static func cameraURL(host: String) -> String {
        "http://\(StreamSource.bracketed(host)):\(StatusEndpoint.elegooCameraPort)/video"
    }
}

extension Printer.Kind {
    /// An Elegoo Centauri Carbon.
    public static let elegoo = Printer.Kind(family: ElegooPrinterFamily(), name: ElegooPrinterFamily.name)
}
