/// A saved window's width or height, always within `AppConfig.windowSizes`: a hand-edited or
/// damaged file can hold any number, and GTK takes 32-bit sizes, so whatever is read or set is
/// brought to the nearest end of the range. Written to the file as a plain number.
@propertyWrapper
public struct WindowDimension: Codable, Hashable, Sendable {
    private var value: Int

    public var wrappedValue: Int {
        get { value }
        set { value = Self.clamped(newValue) }
    }

    public init(wrappedValue: Int) {
        value = Self.clamped(wrappedValue)
    }

    public init(from decoder: Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Int.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    private static func clamped(_ size: Int) -> Int {
        min(max(size, AppConfig.windowSizes.lowerBound), AppConfig.windowSizes.upperBound)
    }
}
