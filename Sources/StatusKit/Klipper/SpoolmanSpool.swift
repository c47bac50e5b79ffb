import Foundation

/// A Spoolman spool as Spoolman's API describes it (`GET /v1/spool/ID`, through Moonraker's proxy):
/// `filament.material`, `filament.name`, `filament.color_hex` (six or eight hex digits, alpha last;
/// a multi-colour filament has `multi_color_hexes` instead, of which the first is shown),
/// `remaining_weight` and the spool's `initial_weight` (else the filament's full-spool `weight`),
/// in grams, which give the share left.
enum SpoolmanSpool {
    static func slot(_ spool: [String: Any], id: Int) -> FilamentSlot {
        let filament = spool["filament"] as? [String: Any] ?? [:]
        let hex = JSONValue.string(filament["color_hex"])
            ?? JSONValue.string(filament["multi_color_hexes"])?.split(separator: ",", maxSplits: 1).first.map(String.init)
        let left = PrinterNumber.double(spool["remaining_weight"], in: PrinterNumber.grams)
        let full = (PrinterNumber.double(spool["initial_weight"], in: PrinterNumber.grams)
            ?? PrinterNumber.double(filament["weight"], in: PrinterNumber.grams)).flatMap { $0 > 0 ? $0 : nil }
        let remaining = left.flatMap { left in full.map { PrinterNumber.rounded(min(100, left / $0 * 100)) } }
        return FilamentSlot(place: .spoolman(id: id), type: JSONValue.string(filament["material"]),
                            name: JSONValue.string(filament["name"]), color: hex.map(rgba), remaining: remaining,
                            remainingGrams: left, isActive: true)
    }

    /// Spoolman's `RRGGBB` (or `RRGGBBAA`, or either after a `#` as older releases stored it) as
    /// `RRGGBBAA`; `FilamentSlot` refuses anything that is then not eight hex digits.
    private static func rgba(_ hex: String) -> String {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        return digits.count == 6 ? digits + "FF" : digits
    }
}
