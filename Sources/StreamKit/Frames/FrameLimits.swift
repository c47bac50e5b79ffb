import CFFmpeg

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

    /// The largest single allocation FFmpeg may make in this process: above any buffer a picture
    /// within these limits needs (an 8K 4:4:4 frame is 95 MiB), far below what a hostile peer could
    /// make FFmpeg 5.1 reserve otherwise — its RTSP client allocates whatever `Content-Length` a
    /// reply announces, and its H.264 parser grows while a frame never ends.
    static let ffmpegAllocationBytes = 128 * 1024 * 1024

    /// Applies `ffmpegAllocationBytes` (`av_max_alloc`, process-wide); evaluated once, when the
    /// first session thread starts.
    static let applyFFmpegAllocationLimit: Void = av_max_alloc(ffmpegAllocationBytes)
}
