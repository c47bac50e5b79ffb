import Foundation

/// The one way a number a printer reports comes into Layerwatch. A printer's firmware (or a hostile
/// host) may send anything — `1e308`, `-1e300`, NaN written as a string, a layer of `1e14` — and one
/// such value must never trap a conversion or fill a label: each field has the range a real printer
/// stays in, and a value outside it (or not finite, or not a number) is unknown, so the field is not
/// shown. Values derived from reported ones (time left from duration and progress) are checked again.
public enum PrinterNumber {
    /// Per cent done.
    public static let percent: ClosedRange<Double> = 0...100
    /// Per cent of a spool left (Bambu's `remain`, where -1 means unknown).
    public static let percentInt: ClosedRange<Int> = 0...100
    /// Grams of filament (Spoolman's weights): up to a 100 kg drum.
    public static let grams: ClosedRange<Double> = 0...100_000
    /// Millimetres of filament a print used (Moonraker's `filament_used`): up to 1000 km.
    public static let millimetres: ClosedRange<Double> = 0...1_000_000_000
    /// An AMS humidity level, 1...5.
    public static let humidityLevel: ClosedRange<Int> = 1...5
    /// A fraction done (Moonraker's progress).
    public static let fraction: ClosedRange<Double> = 0...1
    /// A layer number or count.
    public static let layers: ClosedRange<Int> = 0...1_000_000
    /// A duration in seconds: up to ten years.
    public static let seconds: ClosedRange<Double> = 0...(10 * 365.25 * 86_400)
    /// A duration in minutes (Bambu's time left): the same ten years.
    public static let minutes: ClosedRange<Double> = 0...(seconds.upperBound / 60)
    /// A heater's temperature in °C, current or target.
    public static let celsius: ClosedRange<Double> = -100...1000
    /// A 32-bit code (Bambu's `print_error`, an HMS entry's `attr` and `code`, packed temperatures).
    public static let code: ClosedRange<Int> = 0...Int(UInt32.max)
    /// A camera's rotation in degrees, before it is brought to a quarter turn.
    public static let degrees: ClosedRange<Int> = -3600...3600

    /// The number in `raw` — a JSON number or a numeric string — when it is finite and in `range`.
    public static func double(_ raw: Any?, in range: ClosedRange<Double>) -> Double? {
        checked(parsed(raw), in: range)
    }

    /// The whole number in `raw` (a fractional value is cut towards zero) when it is in `range`.
    public static func int(_ raw: Any?, in range: ClosedRange<Int>) -> Int? {
        guard let value = parsed(raw), value.isFinite,
              value >= Double(range.lowerBound), value < Double(range.upperBound) + 1 else { return nil }
        return Int(value.rounded(.towardZero))
    }

    /// `value` when it is finite and in `range`: for values computed from reported ones.
    public static func checked(_ value: Double?, in range: ClosedRange<Double>) -> Double? {
        guard let value, range.contains(value) else { return nil }  // NaN is in no range
        return value
    }

    /// `value` rounded to a whole number for a label, whatever it is: NaN gives 0 and anything past
    /// a trillion is held there, so a formatter given a number that did not come through this
    /// type still cannot trap.
    public static func rounded(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value.rounded(), -1e12), 1e12))
    }

    private static func parsed(_ raw: Any?) -> Double? {
        switch raw {
        case let number as NSNumber: return number.doubleValue
        case let text as String: return Double(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }
}

/// A status field that holds only a plausible value: whatever is assigned outside `range` (NaN and
/// the infinities too) is stored as unknown. Every number in `PrinterStatus` is one, so a protocol
/// added later cannot hand the status strip a number it would trap on, even by mistake.
@propertyWrapper
public struct InRange<Number: Comparable & Sendable>: Sendable, Equatable {
    private let range: ClosedRange<Number>
    private var value: Number?

    public init(wrappedValue: Number?, _ range: ClosedRange<Number>) {
        self.range = range
        value = wrappedValue.flatMap { range.contains($0) ? $0 : nil }
    }

    public var wrappedValue: Number? {
        get { value }
        set { value = newValue.flatMap { range.contains($0) ? $0 : nil } }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
}
