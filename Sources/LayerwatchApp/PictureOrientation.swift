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
}
