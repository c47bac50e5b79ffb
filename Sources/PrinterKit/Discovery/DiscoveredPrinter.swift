import Foundation

/// A Bambu printer as its latest SSDP announcement describes it: what the add-printer dialog needs
/// to offer it without the user typing an address or looking up the serial.
public struct DiscoveredPrinter: Hashable, Sendable {
    /// Whether the printer is in LAN-only mode or bound to Bambu's cloud (`DevConnect`).
    public enum Connection: String, Sendable {
        case lan, cloud
    }

    /// The serial number (`USN`); it identifies the printer across address changes.
    public var serial: String
    /// The IPv4 address the announcement came from (never its `Location` header, which any host can fill in).
    public var address: String
    /// The model code as announced (`DevModel`), kept even when `BambuModel` doesn't know it.
    public var modelCode: String?
    /// The name the user gave the printer (`DevName`).
    public var name: String?
    public var connection: Connection?
    /// Whether the printer is bound to an account (`DevBind`, e.g. `free` or `occupied`).
    public var bindState: String?
    /// The firmware version (`DevVersion`).
    public var firmwareVersion: String?
    /// The Wi-Fi signal strength as announced (`DevSignal`, e.g. `-44` or `-50dBm`).
    public var signal: String?

    public init(serial: String, address: String, modelCode: String? = nil, name: String? = nil,
                connection: Connection? = nil, bindState: String? = nil, firmwareVersion: String? = nil,
                signal: String? = nil) {
        self.serial = serial
        self.address = address
        self.modelCode = modelCode
        self.name = name
        self.connection = connection
        self.bindState = bindState
        self.firmwareVersion = firmwareVersion
        self.signal = signal
    }

    /// The model, when the code is one Layerwatch knows (it decides the camera transport).
    public var model: BambuModel? { modelCode.flatMap(BambuModel.init(rawValue:)) }

    /// The kind of printer its model is, with the model as its variant; nil when the model is unknown.
    public var kind: Printer.Kind? { model.map(Printer.Kind.bambu) }

    /// The model as printed on the printer, or the raw code for a model Layerwatch doesn't know yet.
    public var modelName: String? { model?.displayName ?? modelCode }

    /// What a list shows: the user's name for the printer, or its serial when it has none.
    public var displayName: String { name ?? serial }
}
