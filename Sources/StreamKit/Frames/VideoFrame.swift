import Foundation

/// One decoded picture in BGRA (byte order B, G, R, A; alpha 255), laid out for GDK's
/// `GDK_MEMORY_B8G8R8A8_PREMULTIPLIED`. Its memory comes from a `FramePool` and goes back there when the
/// last holder lets go, so a texture can wrap `pixels` without copying as long as it retains the frame.
public final class VideoFrame: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// The byte order of each pixel.
    public let order: PixelOrder
    /// Bytes from the start of one row to the next.
    public let stride: Int
    /// The stream's own resolution; `width`×`height` may be smaller (scaled to the largest view).
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// The part of the stream this frame shows, in the stream's pixels: all of it, or what a zoomed
    /// view has in sight (see `PictureRegion`).
    public let region: PixelRect
    /// Counts frames delivered by its session, from 1.
    public let sequence: UInt64
    /// When the frame was decoded and converted (monotonic, `DispatchTime.now().uptimeNanoseconds`).
    public let decodedAt: UInt64
    private let buffer: PixelBuffer
    private let presentationLock = NSLock()
    /// See `sharedPresentation`: weak, so it keeps neither itself nor the frame alive.
    private weak var presentation: AnyObject?

    init(buffer: PixelBuffer, width: Int, height: Int, order: PixelOrder, sourceWidth: Int, sourceHeight: Int,
         region: PixelRect, sequence: UInt64, decodedAt: UInt64) {
        self.buffer = buffer
        self.width = width
        self.height = height
        self.order = order
        self.stride = buffer.stride
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.region = region
        self.sequence = sequence
        self.decodedAt = decodedAt
    }

    deinit {
        buffer.recycle()
    }

    /// The first byte of the top row. Valid while this frame is alive.
    public var pixels: UnsafeRawPointer { UnsafeRawPointer(buffer.bytes) }

    /// Whether the frame shows the whole picture at the stream's own resolution.
    public var isFullResolution: Bool {
        width == sourceWidth && height == sourceHeight && region == .whole(width: sourceWidth, height: sourceHeight)
    }

    /// Seconds since the frame was decoded.
    public var age: TimeInterval {
        Double(DispatchTime.now().uptimeNanoseconds &- decodedAt) / 1e9
    }

    /// Size in bytes of the pixel memory (`stride` × `height`).
    public var byteCount: Int { stride * height }

    /// What a view layer made of this frame (the app's texture), shared by every view that shows it:
    /// made by the first view that asks and held weakly here, so it lives as long as a view holds it.
    public func sharedPresentation<Presentation: AnyObject>(_ make: () -> Presentation) -> Presentation {
        presentationLock.withLock {
            if let existing = presentation as? Presentation { return existing }
            let made = make()
            presentation = made
            return made
        }
    }

    /// The colour at a pixel, as 8-bit red, green, blue.
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the frame")
        let p = pixels.advanced(by: y * stride + x * 4).assumingMemoryBound(to: UInt8.self)
        return order == .bgra ? (p[2], p[1], p[0]) : (p[0], p[1], p[2])
    }
}
