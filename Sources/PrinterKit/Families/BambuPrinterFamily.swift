import Foundation
import StatusKit
import StreamKit

/// The Bambu Lab family as a saved printer: two kinds by camera transport (`bambuRTSPS`: X1, P2S,
/// H2, X2D over RTSPS on port 322; `bambuJPEG`: P1 and A1, JPEG frames over TLS on port 6000), its
/// model as `printers.json`'s `model`, its status from its MQTT broker with the access code.
struct BambuPrinterFamily: PrinterFamily {
    static let rtspsName = "bambuRTSPS", jpegName = "bambuJPEG"

    let kindNames = [Self.rtspsName, Self.jpegName]
    let variantKey: String? = "model"
    let hasOwnCamera = true
    let secretNoun: SecretsPlace.Noun? = .accessCode
    /// The file keeps no access code; the keyring item is the bare code while no camera URL holds a password.
    let fileSecretMark = FileSecretMark.nothing
    /// Its printers announce themselves over SSDP.
    let discovery: (any FamilyDiscovery)? = BambuDiscovery()

    /// A model this version does not know yet is dropped, not a reason to leave the printer out.
    func variant(_ raw: String) -> String? { BambuModel(rawValue: raw)?.rawValue }

    func displayName(of kind: Printer.Kind) -> String? { kind.model?.displayName ?? "Bambu Lab" }

    func statusEndpoint(of printer: Printer) -> StatusEndpoint? {
        guard !printer.host.isEmpty, !printer.accessCode.isEmpty else { return nil }
        return .bambu(host: printer.host, port: printer.apiPort ?? StatusEndpoint.bambuPort, accessCode: printer.accessCode,
                      serial: printer.serial)
    }

    func ownCameraSource(of printer: Printer) throws -> StreamSource {
        printer.kind.name == Self.rtspsName ? try BambuCamera.rtspsSource(host: printer.host, accessCode: printer.accessCode)
                                            : try BambuCamera.jpegSource(host: printer.host, accessCode: printer.accessCode)
    }

    /// go2rtc's `rtspx:` (RTSPS without certificate checks) for an RTSPS camera; `layerwatch relay`
    /// for a P1/A1 camera, which go2rtc cannot read.
    func go2rtcSource(of printer: Printer, camera index: Int, among printers: [Printer]) -> Result<Go2RTCExport.Source, Go2RTCExport.Omission> {
        guard printer.kind.name == Self.rtspsName else { return .success(Go2RTCExport.relay(printer, camera: index, among: printers)) }
        guard case .rtsp(let url)? = try? BambuCamera.rtspsSource(host: printer.host, accessCode: printer.accessCode),
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return .failure(.invalidBambuCamera)
        }
        components.scheme = "rtspx"
        return components.string.map { .success(Go2RTCExport.Source(url: $0)) } ?? .failure(.invalidBambuCamera)
    }

    func formatTwoJoinKey(of printer: Printer) -> String? {
        guard let serial = printer.serial, !serial.isEmpty else { return nil }
        return "bambu \(serial.uppercased())"
    }

    /// A Bambu printer's camera: JPEG over TLS, or RTSPS as its user `bblp` (the one user its LAN
    /// camera has), reached with the access code once LAN Only Liveview is on.
    func cameraTerms(of source: StreamSource) -> CameraTerms? {
        switch source {
        case .bambuJPEG: return .bambu
        case .rtsp(let url) where url.scheme?.lowercased() == "rtsps" && url.user == BambuCamera.user: return .bambu
        default: return nil
        }
    }

    func printer(from draft: PrinterDraft, name: String, messages: inout [PrinterDraft.Field: String]) -> Printer {
        draft.bambuPrinter(name: name, messages: &messages)
    }

    /// The model's kind when its camera is this kind's, else the kind as it is.
    func kind(_ kind: Printer.Kind, variant: String?) -> Printer.Kind {
        guard let model = variant.flatMap(BambuModel.init(rawValue:)), Printer.Kind.bambu(model).withoutVariant == kind else { return kind }
        return .bambu(model)
    }
}

extension Printer.Kind {
    /// Bambu Lab X1, X1C, X1E, P2S, H2D, H2S, H2C, X2D: RTSPS on port 322.
    public static func bambuRTSPS(_ model: BambuModel?) -> Printer.Kind {
        Printer.Kind(family: BambuPrinterFamily(), name: BambuPrinterFamily.rtspsName, variant: model?.rawValue)
    }

    /// Bambu Lab P1 and A1 families: JPEG frames over TLS on port 6000.
    public static func bambuJPEG(_ model: BambuModel?) -> Printer.Kind {
        Printer.Kind(family: BambuPrinterFamily(), name: BambuPrinterFamily.jpegName, variant: model?.rawValue)
    }

    /// The kind a Bambu model's camera needs (for discovery, which knows the model).
    public static func bambu(_ model: BambuModel) -> Printer.Kind {
        switch model.camera {
        case .rtsps: return .bambuRTSPS(model)
        case .jpegOverTLS: return .bambuJPEG(model)
        }
    }

    public var isBambu: Bool { family is BambuPrinterFamily }

    /// The Bambu printer's model, when known; nil for other kinds.
    public var model: BambuModel? { isBambu ? variant.flatMap(BambuModel.init(rawValue:)) : nil }
}

extension CameraTerms {
    /// A Bambu printer's camera's words: its access code, on the printer's screen, and LAN Only Liveview.
    static var bambu: CameraTerms {
        CameraTerms(authRejected: tr("Access code rejected — check it on the printer's screen."),
                    refused: tr("The printer refused the connection — check the address and port, and that LAN Only Liveview is on."),
                    timeout: tr("The printer did not answer in time — check that it is on and on the same network."),
                    rejectedTitle: tr("Access code rejected"),
                    rejectedDetail: tr("Check the LAN access code on the printer's screen, then try again."),
                    editCredentials: tr("Edit Access Code…"))
    }
}

extension PrinterDraft {
    /// The Bambu printer: its address, access code, serial number and cameras (its own first).
    func bambuPrinter(name: String, messages: inout [Field: String]) -> Printer {
        if let mismatch = modelMismatch { messages[.kind] = mismatch }
        var host = ""
        do { host = try BambuCamera.validatedHost(self.host) } catch { messages[.host] = "\(error)" }
        var code = ""
        do { code = try BambuCamera.validatedAccessCode(accessCode) } catch { messages[.accessCode] = "\(error)" }
        let serial = serial.trimmingCharacters(in: .whitespaces)
        if !serial.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) {
            messages[.serial] = tr("A serial number has only letters A–Z and digits (it is on the printer's label); leave it empty if unsure.")
        }
        let port = Int(apiPort.trimmingCharacters(in: .whitespaces)).flatMap {
            (1...65535).contains($0) && $0 != StatusEndpoint.bambuPort ? $0 : nil
        }
        return kept(Printer(id: id, name: name, kind: kind, host: host, apiPort: port, serial: serial.isEmpty ? nil : serial,
                            accessCode: code, cameras: checkedCameras(messages: &messages)))
    }

    /// A message when the chosen model's camera needs the other Bambu kind.
    private var modelMismatch: String? {
        guard let model = kind.model, Printer.Kind.bambu(model) != kind else { return nil }
        switch model.camera {
        case .rtsps:
            return String(format: tr("The %@ streams its camera over RTSPS: choose “Bambu Lab with RTSPS”."), model.displayName)
        case .jpegOverTLS:
            return String(format: tr("The %@ sends its camera as JPEG frames on port 6000: choose “Bambu Lab P1/A1”."), model.displayName)
        }
    }
}
