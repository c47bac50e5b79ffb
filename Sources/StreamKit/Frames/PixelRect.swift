/// A rectangle of a frame in pixels: the part of the stream a converted frame shows.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// All of a `width`×`height` frame.
    public static func whole(width: Int, height: Int) -> PixelRect {
        PixelRect(x: 0, y: 0, width: width, height: height)
    }

    public var description: String { "\(width)×\(height)+\(x)+\(y)" }
}
