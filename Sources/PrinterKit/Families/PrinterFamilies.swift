import Foundation
import StreamKit

/// The registry of printer families a saved printer can be of: adding a family is one line here and
/// its own file. The order is irrelevant; `printers.json` names a family by its kind names.
enum PrinterFamilies {
    static let all: [any PrinterFamily] = [
        BambuPrinterFamily(),
        KlipperPrinterFamily(),
        OctoPrintPrinterFamily(),
        CrealityPrinterFamily(),
        ElegooPrinterFamily(),
        FlashforgePrinterFamily(),
        PrusaLinkPrinterFamily(),
        CameraByURLFamily(),
    ]

    /// The discoveries of the families that can be discovered.
    static var discoveries: [any FamilyDiscovery] { all.compactMap(\.discovery) }

    /// The family whose discovery is `id` (`FamilyDiscovery.id`, as a find carries it).
    static func family(discoveredBy id: String) -> (any PrinterFamily)? {
        all.first { $0.discovery?.id == id }
    }

    /// The family whose printers have `kindName` in `printers.json`.
    static func family(kindName: String) -> (any PrinterFamily)? {
        all.first { $0.kindNames.contains(kindName) }
    }

    /// How failures of `source` are worded: as the family whose printer's camera it is says.
    static func cameraTerms(of source: StreamSource) -> CameraTerms? {
        all.lazy.compactMap { $0.cameraTerms(of: source) }.first
    }
}

extension Printer {
    /// How failures of camera `source` are worded: in the terms of the printer family whose camera it
    /// is (a Bambu printer's speaks of its access code and LAN Only Liveview); nil: as any camera's.
    public static func cameraTerms(of source: StreamSource) -> CameraTerms? {
        PrinterFamilies.cameraTerms(of: source)
    }
}
