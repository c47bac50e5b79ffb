/// A size in device pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Asks for the stream's own size.
    public static let full = PixelSize(width: 0, height: 0)

    public var description: String { "\(width)×\(height)" }
}
