import StreamKit

/// How a camera is mounted, as its printer's settings say (Klipper's and OctoPrint's rotation and
/// flips come with the import): mirrored left-right or upside down, then turned clockwise in
/// quarter turns. Every view of the camera shows the picture upright by drawing it so (GTK turns it
/// while drawing; the session converts frames in the camera's own orientation).
public struct PictureOrientation: Equatable, Sendable {
    /// Quarter turns clockwise, 0 to 3.
    public var quarterTurns: Int
    public var flipHorizontal: Bool
    public var flipVertical: Bool

    public static let upright = PictureOrientation(rotation: 0, flipHorizontal: false, flipVertical: false)

    /// From a printer's setting: `rotation` in degrees clockwise (90, 180, 270; others round down to
    /// a quarter turn).
    public init(rotation: Int, flipHorizontal: Bool, flipVertical: Bool) {
        quarterTurns = ((rotation / 90) % 4 + 4) % 4
        self.flipHorizontal = flipHorizontal
        self.flipVertical = flipVertical
    }

    /// True when the picture is turned a quarter or three: its width runs up the screen.
    public var isSideways: Bool { quarterTurns % 2 == 1 }

    /// The size frames are wanted at for a view `display` pixels large: a sideways view's sides
    /// swapped.
    func frameSize(forDisplay display: PixelSize) -> PixelSize {
        isSideways ? PixelSize(width: display.height, height: display.width) : display
    }

    /// The part of the stream (in the camera's own orientation, as the session converts it) that
    /// shows `region` of the upright picture: a zoomed view's region turned back.
    func streamRegion(ofUpright region: PictureRegion) -> PictureRegion {
        let corners = [streamPoint(region.x, region.y), streamPoint(region.x + region.width, region.y + region.height)]
        let left = corners.map(\.x).min()!, top = corners.map(\.y).min()!
        return PictureRegion(x: left, y: top, width: corners.map(\.x).max()! - left, height: corners.map(\.y).max()! - top)
    }

    /// The stream's point (fractions of its sides) shown at (`x`, `y`) of the upright picture: the
    /// turn undone, then the flips.
    private func streamPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let (u, v): (Double, Double)
        switch quarterTurns {
        case 1: (u, v) = (y, 1 - x)
        case 2: (u, v) = (1 - x, 1 - y)
        case 3: (u, v) = (1 - y, x)
        default: (u, v) = (x, y)
        }
        return (flipHorizontal ? 1 - u : u, flipVertical ? 1 - v : v)
    }

    /// The picture upright: 4-byte pixels (any channel order) `width`×`height` with rows `stride`
    /// bytes apart, flipped then turned as this orientation says, packed into new rows. For a
    /// snapshot, off the main loop.
    public func upright(_ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) -> (bytes: [UInt8], width: Int, height: Int) {
        let (outWidth, outHeight) = isSideways ? (height, width) : (width, height)
        var out = [UInt32](repeating: 0, count: outWidth * outHeight)
        out.withUnsafeMutableBufferPointer { target in
            for v in 0..<height {
                let row = (pixels + v * stride).assumingMemoryBound(to: UInt32.self)
                let y1 = flipVertical ? height - 1 - v : v
                for u in 0..<width {
                    let x1 = flipHorizontal ? width - 1 - u : u
                    let (x, y): (Int, Int)
                    switch quarterTurns {
                    case 1: (x, y) = (height - 1 - y1, x1)
                    case 2: (x, y) = (width - 1 - x1, height - 1 - y1)
                    case 3: (x, y) = (y1, width - 1 - x1)
                    default: (x, y) = (x1, y1)
                    }
                    target[y * outWidth + x] = row[u]
                }
            }
        }
        let bytes = out.withUnsafeBytes { Array($0) }
        return (bytes, outWidth, outHeight)
    }
}
