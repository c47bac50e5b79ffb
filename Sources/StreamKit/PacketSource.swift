import CFFmpeg

/// Where an open connection's compressed video comes from: FFmpeg's demuxer (`MediaInput`), an HTTP
/// camera's MJPEG or snapshot (`HTTPInput`) or the Bambu P1/A1 JPEG transport (`BambuJPEGInput`). It
/// exists so that one `FramePump` does the rest for all — decode, convert, publish, stats,
/// first-frame and deadline handling.
protocol PacketSource: AnyObject {
    /// Reads the next video packet into `packet`; throws `AVERROR_EOF` at the end of the input.
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError)
    /// A decoder for this source's packets.
    func makeDecoder(threads: Int) throws(FFmpegError) -> VideoDecoder
    /// The packets' time base, for pacing files by their timestamps.
    var timeBase: AVRational { get }
    /// True when the input is a single still image (an HTTP snapshot URL), to be polled.
    var isStillImage: Bool { get }
    /// Whether stream info had to be probed (kept for stats and the benchmark).
    var probedStreamInfo: Bool { get }
    /// Goes back to the start, for looping files.
    func rewind() throws(FFmpegError)
}

/// Opens the packet source that speaks `source`'s protocol. Every blocking call it makes is bound to
/// `gate`: a stop request or an expired deadline interrupts it.
func openPacketSource(_ source: StreamSource, gate: InterruptGate, options: SessionOptions) throws(FFmpegError) -> any PacketSource {
    switch source {
    case .bambuJPEG(_, _, let accessCode):
        return try BambuJPEGInput(address: source.ffmpegURL, accessCode: accessCode, gate: gate,
                                  socketTimeout: options.socketTimeoutMicroseconds(for: source))
    case .http:
        return try HTTPInput(source: source, gate: gate, options: options)
    case .rtsp, .file:
        return try MediaInput(source: source, gate: gate, options: options)
    }
}
