import Foundation
import StreamKit

/// How filament reads, the same in the popover, tooltips and `layerwatch status`: slots named as
/// Bambu Studio names them (`AMS A2`: unit A, tray 2), the external spool, Spoolman's spool.
public enum FilamentText {
    /// `AMS A` for AMS unit 0, `AMS HT 1` for an AMS HT (ids from 128).
    public static func unit(_ id: Int) -> String {
        if id >= 128 { return String(format: tr("AMS HT %d"), id - 127) }
        return String(format: tr("AMS %@"), letter(id))
    }

    /// `AMS A2`, `AMS HT 1`, `External spool`, `Spoolman spool 12`.
    public static func place(_ place: FilamentSlot.Place) -> String {
        switch place {
        case .tray(let unit, _) where unit >= 128: return self.unit(unit)  // one tray
        case .tray(let unit, let tray): return String(format: tr("AMS %@%d"), letter(unit), tray + 1)
        case .external: return tr("External spool")
        case .spoolman(let id): return String(format: tr("Spoolman spool %d"), id)
        }
    }

    /// The material and the product's name when it says more (`PLA · PLA Matte`), or `Empty`.
    public static func material(_ slot: FilamentSlot) -> String {
        guard let type = slot.type else { return tr("Empty") }
        guard let name = slot.name, name != type else { return type }
        return String(format: tr("%@ · %@"), type, name)
    }

    /// `80 % left`, `950 g left`, `80 % left (950 g)`; nil when unknown.
    public static func remaining(_ slot: FilamentSlot) -> String? {
        let grams = slot.remainingGrams.map { String(format: tr("%d g"), PrinterNumber.rounded($0)) }
        switch (slot.remaining, grams) {
        case let (percent?, grams?): return String(format: tr("%d %% left (%@)"), percent, grams)
        case let (percent?, nil): return String(format: tr("%d %% left"), percent)
        case let (nil, grams?): return String(format: tr("%@ left"), grams)
        case (nil, nil): return nil
        }
    }

    /// `humidity 2 of 5`: an AMS's humidity level on Bambu Studio's scale (1 dry, 5 wet).
    public static func humidity(_ level: Int) -> String {
        String(format: tr("humidity %d of 5"), level)
    }

    /// One line for a terminal or a tooltip: `PLA · PLA Matte, FF0000FF, 80 % left, in use`.
    public static func summary(_ slot: FilamentSlot) -> String {
        var parts = [material(slot)]
        if !slot.isEmpty, let color = slot.color { parts.append(color) }
        if let left = remaining(slot) { parts.append(left) }
        if slot.isActive { parts.append(tr("in use")) }
        return parts.joined(separator: ", ")
    }

    /// A, B, … for units 0–25, else the number.
    private static func letter(_ unit: Int) -> String {
        (0..<26).contains(unit) ? String(UnicodeScalar(UInt8(65 + unit))) : "\(unit + 1)"
    }
}
