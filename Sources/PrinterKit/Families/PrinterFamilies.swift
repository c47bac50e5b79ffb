import Foundation

/// The registry of printer families a saved printer can be of: adding a family is one line here and
/// its own file. The order is irrelevant; `printers.json` names a family by its kind names.
enum PrinterFamilies {
    static let all: [any PrinterFamily] = [
        BambuPrinterFamily(),
        KlipperPrinterFamily(),
        OctoPrintPrinterFamily(),
        CrealityPrinterFamily(),
        CameraByURLFamily(),
    ]

    /// The family whose printers have `kindName` in `printers.json`.
    static func family(kindName: String) -> (any PrinterFamily)? {
        all.first { $0.kindNames.contains(kindName) }
    }
}
