/// The largest picture a camera can plausibly send, so a hostile or broken peer is stopped at a
/// frame's worth of memory instead of being buffered or decoded without end.
enum FrameLimits {
    /// Bytes of one compressed frame (an MJPEG part, a snapshot, a P1 payload). Real camera JPEGs
    /// are tens to hundreds of KiB; an 8K one stays well below this.
    static let maximumBytes = 8 * 1024 * 1024
    /// The largest picture decoded: 8K UHD. Cameras send at most 4K.
    static let maximumWidth = 7680
    static let maximumHeight = 4320
    static var maximumPixels: Int { maximumWidth * maximumHeight }
}
