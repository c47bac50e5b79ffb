/// The part of a camera's picture a view shows, as fractions of the stream's width and height in the
/// stream's own orientation: all of it, or what a zoomed view has in sight. A view sends it with its
/// size, so its session crops the decoded frame before scaling it and converts only what is seen,
/// at the size it is seen (see `FrameScaler`).
public struct PictureRegion: Hashable, Sendable, CustomStringConvertible {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    public static let whole = PictureRegion(x: 0, y: 0, width: 1, height: 1)

    /// A region kept inside the picture and at least 1/64 of each side.
    public init(x: Double, y: Double, width: Double, height: Double) {
        let width = Self.clamp(width, 1.0 / 64, 1), height = Self.clamp(height, 1.0 / 64, 1)
        self.width = width
        self.height = height
        self.x = Self.clamp(x, 0, 1 - width)
        self.y = Self.clamp(y, 0, 1 - height)
    }

    public var isWhole: Bool { self == .whole }

    /// The pixels of a `sourceWidth`×`sourceHeight` frame it covers, grown outwards to even
    /// coordinates so a 4:2:0 frame's chroma is cut on its own sample boundaries.
    public func pixels(sourceWidth: Int, sourceHeight: Int) -> PixelRect {
        func span(_ start: Double, _ length: Double, _ total: Int) -> (Int, Int) {
            let first = Int((start * Double(total)).rounded(.down)) & ~1
            let end = min(total, (Int((Double(total) * (start + length)).rounded(.up)) + 1) & ~1)
            return (first, max(min(2, total), end - first))
        }
        let (left, width) = span(x, self.width, sourceWidth), (top, height) = span(y, self.height, sourceHeight)
        return PixelRect(x: left, y: top, width: width, height: height)
    }

    public var description: String {
        isWhole ? "whole" : String(format: "%.3f,%.3f %.3f×%.3f", x, y, width, height)
    }

    private static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        value.isFinite ? min(max(value, low), high) : low
    }
}
