import CFFmpeg
import Foundation

/// Where an open connection's compressed video comes from: FFmpeg's demuxer (`MediaInput`), an HTTP
/// camera's MJPEG or snapshot (`HTTPInput`), the Bambu P1/A1 JPEG transport (`BambuJPEGInput`) or a
/// WebRTC camera (`WebRTCInput`). It
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
    /// What a recording of this input needs to know of its stream.
    var recordedStream: RecordedStream { get }
}

/// The packet sources of cameras that send bare JPEGs without timestamps (HTTP, Bambu P1/A1): each
/// packet is a keyframe stamped with its arrival time, and there is nothing to probe or rewind.
protocol ArrivalTimedSource: PacketSource {}

extension ArrivalTimedSource {
    /// Microseconds, as `stampArrival` writes them.
    var timeBase: AVRational { AVRational(num: 1, den: 1_000_000) }
    /// The codec is always MJPEG.
    var probedStreamInfo: Bool { false }
    var recordedStream: RecordedStream { .arrivalTimedJPEG }

    func rewind() throws(FFmpegError) {
        throw FFmpegError(code: lw_averror(ESPIPE), stage: .read)
    }

    /// Marks `packet`, just read, as a keyframe that arrived now.
    func stampArrival(_ packet: UnsafeMutablePointer<AVPacket>) {
        packet.pointee.pts = Int64(DispatchTime.now().uptimeNanoseconds / 1000)
        packet.pointee.dts = packet.pointee.pts
        packet.pointee.flags |= AV_PKT_FLAG_KEY
    }
}

extension UnsafeMutablePointer<AVPacket> {
    /// Gives the packet a new buffer of `count` bytes (and FFmpeg's zeroed padding); returns its start.
    func allocateData(count: Int) throws(FFmpegError) -> UnsafeMutablePointer<UInt8> {
        guard av_new_packet(self, Int32(count)) >= 0, let data = pointee.data else {
            throw FFmpegError(code: lw_averror(ENOMEM), stage: .read)
        }
        return data
    }

    /// Gives the packet a copy of `bytes`.
    func copyData(from bytes: [UInt8]) throws(FFmpegError) {
        let data = try allocateData(count: bytes.count)
        bytes.withUnsafeBufferPointer { if let start = $0.baseAddress { data.update(from: start, count: $0.count) } }
    }
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
    case .webrtc(let url, _):
        return try WebRTCInput(url: url, source: source, gate: gate, options: options)
    case .rtsp, .file:
        return try MediaInput(source: source, gate: gate, options: options)
    }
}
