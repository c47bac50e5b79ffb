import Foundation

/// A printer found on the network, as its family's latest announcement or answer describes it:
/// what `layerwatch discover` lists and what the add-printer dialog needs to offer it without the
/// user typing an address or looking up its serial. Every field but the family, identifier and
/// address is the printer's own say and may be missing.
public struct DiscoveredPrinter: Hashable, Sendable {
    /// Whether a Bambu printer is in LAN-only mode or bound to Bambu's cloud (`DevConnect`).
    public enum Connection: String, Sendable {
        case lan, cloud
    }

    /// Which family's discovery found it (`FamilyDiscovery.id`: `bambu`, `elegoo`, `flashforge`).
    public var family: String
    /// What identifies the printer across address changes: a serial number, an Elegoo mainboard id.
    public var identifier: String
    /// The IPv4 address the datagram came from (never an address written in it, which any host can fill in).
    public var address: String
    /// The name the user gave the printer.
    public var name: String?
    /// The model as the printer names it (a Bambu model code, an Elegoo machine name…).
    public var modelCode: String?
    /// The model as printed on the printer, or its code when Layerwatch doesn't know it.
    public var modelName: String?
    /// Its kind's name in `printers.json` when the family has several and the find says which; nil
    /// for a family of one kind, or a find that doesn't say.
    public var kindName: String?
    /// The family's variant as `printers.json` keeps it (a Bambu model's code); nil when none.
    public var variant: String?
    /// The firmware version.
    public var firmwareVersion: String?
    /// A Bambu printer's LAN or cloud mode.
    public var connection: Connection?
    /// Whether a Bambu printer is bound to an account (`DevBind`, e.g. `free` or `occupied`).
    public var bindState: String?
    /// A Bambu printer's Wi-Fi signal strength as announced (`DevSignal`, e.g. `-44` or `-50dBm`).
    public var signal: String?

    public init(family: String, identifier: String, address: String, name: String? = nil, modelCode: String? = nil,
                modelName: String? = nil, kindName: String? = nil, variant: String? = nil, firmwareVersion: String? = nil,
                connection: Connection? = nil, bindState: String? = nil, signal: String? = nil) {
        self.family = family
        self.identifier = identifier
        self.address = address
        self.name = name
        self.modelCode = modelCode
        self.modelName = modelName
        self.kindName = kindName
        self.variant = variant
        self.firmwareVersion = firmwareVersion
        self.connection = connection
        self.bindState = bindState
        self.signal = signal
    }

    /// The serial number; the identifier by its name in the families that have serials.
    public var serial: String { identifier }

    /// One printer of one family: finds with the same key are the same printer.
    public var key: String { family + " " + identifier }

    /// The family's name as its owners say it ("Bambu Lab").
    public var familyTitle: String { PrinterFamilies.family(discoveredBy: family)?.discovery?.title ?? family }

    /// Its kind, through the registry: the one the find names, or its family's only one, with its
    /// variant when the family knows it; nil when its family has several kinds and the find doesn't say
    /// which.
    public var kind: Printer.Kind? {
        guard let family = PrinterFamilies.family(discoveredBy: family),
              let name = kindName ?? (family.kindNames.count == 1 ? family.kindNames[0] : nil),
              family.kindNames.contains(name) else { return nil }
        return Printer.Kind(family: family, name: name, variant: variant.flatMap(family.variant))
    }

    /// What a list shows: the user's name for the printer, or its identifier when it has none.
    public var displayName: String { name ?? identifier }
}
