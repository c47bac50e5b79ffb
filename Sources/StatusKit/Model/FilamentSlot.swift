import Foundation

/// One place a printer holds filament — an AMS tray, Bambu's external spool, or the spool Moonraker
/// tracks in Spoolman — in the same words for every printer, so the strip's swatches, the popover
/// and `layerwatch status` show it alike. Built only from checked input: a colour that is not
/// exactly `RRGGBBAA`, or a remaining share outside 0...100 (Bambu's -1 included), is unknown.
public struct FilamentSlot: Equatable, Sendable {
    /// Where the filament sits.
    public enum Place: Equatable, Sendable {
        /// Tray `tray` (0-based) of AMS unit `unit` (Bambu's id: 0–3 for an AMS, 128+ for an AMS HT).
        case tray(unit: Int, tray: Int)
        /// Bambu's external spool holder.
        case external
        /// The spool with this Spoolman id, the one Moonraker reports usage to.
        case spoolman(id: Int)
    }

    public let place: Place
    /// The material (`PLA`, `PETG`), nil for an empty tray or when not said.
    public var type: String?
    /// The product's name (`PLA Matte`, Spoolman's filament name), when the printer knows it.
    public var name: String?
    /// The colour as `RRGGBBAA`, 8 upper-case hex digits; nil when unknown.
    public var color: String?
    /// Per cent left, when known.
    @InRange(PrinterNumber.percentInt) public var remaining: Int? = nil
    /// Grams left, when the printer says (Spoolman).
    @InRange(PrinterNumber.grams) public var remainingGrams: Double? = nil
    /// The slot the printer feeds from now.
    public var isActive: Bool

    public init(place: Place, type: String? = nil, name: String? = nil, color: String? = nil, remaining: Int? = nil,
                remainingGrams: Double? = nil, isActive: Bool = false) {
        self.place = place
        self.type = type.flatMap(Self.text)
        self.name = name.flatMap(Self.text)
        self.color = color.flatMap(Self.color)
        self.remaining = remaining
        self.remainingGrams = remainingGrams
        self.isActive = isActive
    }

    /// A tray with no filament in it: the printer names no material.
    public var isEmpty: Bool { type == nil }

    /// The longest type or name kept: a label shows a few words.
    public static let textLimit = 40

    /// `raw` when it is exactly eight hex digits (`RRGGBBAA`), upper-cased; anything else is unknown.
    public static func color(_ raw: String) -> String? {
        guard raw.count == 8, raw.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        return raw.uppercased()
    }

    /// `raw` trimmed and cut to `textLimit` characters; nil when nothing is left.
    private static func text(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(textLimit))
    }
}

/// An AMS unit's own readings, beside its trays.
public struct FilamentUnit: Equatable, Sendable {
    /// Bambu's unit id (0–3 an AMS, 128+ an AMS HT).
    public let id: Int
    /// Humidity on Bambu Studio's scale, 1 (dry) to 5 (wet); nil when not reported.
    @InRange(PrinterNumber.humidityLevel) public var humidityLevel: Int? = nil

    public init(id: Int, humidityLevel: Int? = nil) {
        self.id = id
        self.humidityLevel = humidityLevel
    }
}

/// What filament a printer has loaded: its AMS units and every slot, in the printer's order
/// (AMS trays, then the external spool). Empty when the printer reports none.
public struct Filament: Equatable, Sendable {
    public var units: [FilamentUnit]
    public var slots: [FilamentSlot]

    public init(units: [FilamentUnit] = [], slots: [FilamentSlot] = []) {
        self.units = units
        self.slots = slots
    }

    public var isEmpty: Bool { slots.isEmpty }
    /// The slot being fed from, if any.
    public var active: FilamentSlot? { slots.first(where: \.isActive) }
}
