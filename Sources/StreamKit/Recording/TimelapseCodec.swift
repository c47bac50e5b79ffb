import CFFmpeg
import Foundation

/// An opened libavcodec encoder, for `TimelapseEncoder`: frames in, compressed packets out.
final class TimelapseCodecEncoder {
    typealias Failure = TimelapseEncoder.Failure
    /// Hands out one packet: its bytes, pts, dts and whether it is a keyframe.
    typealias PacketSink = ([UInt8], Int64, Int64, Bool) throws(Failure) -> Void

    let context: UnsafeMutablePointer<AVCodecContext>

    init(codec: UnsafePointer<AVCodec>, width: Int, height: Int, format: AVPixelFormat, timeBase: AVRational,
         configure: (UnsafeMutablePointer<AVCodecContext>) -> Void) throws(Failure) {
        guard let context = avcodec_alloc_context3(codec) else { throw Failure(description: "out of memory") }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = format
        context.pointee.time_base = timeBase
        configure(context)
        let result = avcodec_open2(context, codec, nil)
        guard result >= 0 else {
            var doomed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&doomed)
            throw Failure(description: "\(String(cString: codec.pointee.name)): \(FFmpegError(code: result, stage: .open).text)")
        }
        self.context = context
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&doomed)
    }

    /// Sends `frame` (nil: the end, flushing what the encoder holds) and hands every packet that
    /// comes out to `sink`.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?, _ sink: PacketSink) throws(Failure) {
        var result = avcodec_send_frame(context, frame)
        guard result >= 0 || result == lw_averror_eof() else { throw Failure(description: FFmpegError(code: result, stage: .decode).text) }
        guard let packet = av_packet_alloc() else { throw Failure(description: "out of memory") }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        while true {
            result = avcodec_receive_packet(context, packet)
            if result == lw_averror_eagain() || result == lw_averror_eof() { return }
            guard result >= 0 else { throw Failure(description: FFmpegError(code: result, stage: .decode).text) }
            let bytes = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
            let (pts, dts, key) = (packet.pointee.pts, packet.pointee.dts, packet.pointee.flags & AV_PKT_FLAG_KEY != 0)
            av_packet_unref(packet)
            try sink(bytes, pts, dts, key)
        }
    }
}

/// One picture buffer for an encoder, filled from a frame's BGRA pixels or from a JPEG file,
/// scaled by swscale to the buffer's size and format.
final class TimelapsePicture {
    typealias Failure = TimelapseEncoder.Failure

    let frame: UnsafeMutablePointer<AVFrame>
    private var scaler: OpaquePointer?

    init(width: Int, height: Int, format: AVPixelFormat) throws(Failure) {
        guard let frame = av_frame_alloc() else { throw Failure(description: "out of memory") }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = format.rawValue
        guard av_frame_get_buffer(frame, 0) >= 0 else {
            var doomed: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&doomed)
            throw Failure(description: "out of memory")
        }
        self.frame = frame
    }

    deinit {
        sws_freeContext(scaler)
        var doomed: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&doomed)
    }

    /// Fills the buffer from `sourceWidth`×`sourceHeight` 4-byte pixels (BGRA or RGBA) at `pixels`.
    func fill(fromBGRA pixels: UnsafeRawPointer, stride: Int, order: PixelOrder, sourceWidth: Int, sourceHeight: Int) throws(Failure) {
        var planes: [UnsafePointer<UInt8>?] = [pixels.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var strides: [Int32] = [Int32(stride), 0, 0, 0]
        try scale(from: &planes, strides: &strides, width: sourceWidth, height: sourceHeight,
                  format: order == .rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_BGRA)
    }

    /// Fills the buffer from the JPEG file at `url`; false when it does not decode.
    func fill(fromJPEG url: URL) throws(Failure) -> Bool {
        guard let decoded = TimelapsePicture.decodeJPEG(url) else { return false }
        var source: UnsafeMutablePointer<AVFrame>? = decoded
        defer { av_frame_free(&source) }
        var planes: [UnsafePointer<UInt8>?] = [UnsafePointer(decoded.pointee.data.0), UnsafePointer(decoded.pointee.data.1),
                                               UnsafePointer(decoded.pointee.data.2), nil]
        var strides: [Int32] = [decoded.pointee.linesize.0, decoded.pointee.linesize.1, decoded.pointee.linesize.2, 0]
        try scale(from: &planes, strides: &strides, width: Int(decoded.pointee.width), height: Int(decoded.pointee.height),
                  format: AVPixelFormat(decoded.pointee.format))
        return true
    }

    /// The JPEG file at `url` decoded (the caller frees it), or nil.
    static func decodeJPEG(_ url: URL) -> UnsafeMutablePointer<AVFrame>? {
        guard let data = try? Data(contentsOf: url), !data.isEmpty, let codec = avcodec_find_decoder(AV_CODEC_ID_MJPEG),
              let context = avcodec_alloc_context3(codec) else { return nil }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&owned) }
        context.pointee.max_pixels = Int64(FrameLimits.maximumPixels)
        guard avcodec_open2(context, codec, nil) >= 0, let packet = av_packet_alloc() else { return nil }
        var ownedPacket: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&ownedPacket) }
        guard av_new_packet(packet, Int32(data.count)) >= 0 else { return nil }
        data.withUnsafeBytes { packet.pointee.data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: data.count) }
        guard avcodec_send_packet(context, packet) >= 0, avcodec_send_packet(context, nil) >= 0 else { return nil }
        var frame = av_frame_alloc()
        guard let decoded = frame, avcodec_receive_frame(context, decoded) >= 0 else {
            av_frame_free(&frame)
            return nil
        }
        return decoded
    }

    private func scale(from planes: inout [UnsafePointer<UInt8>?], strides: inout [Int32], width: Int, height: Int,
                       format: AVPixelFormat) throws(Failure) {
        guard av_frame_make_writable(frame) >= 0 else { throw Failure(description: "out of memory") }
        scaler = sws_getCachedContext(scaler, Int32(width), Int32(height), format, frame.pointee.width, frame.pointee.height,
                                      AVPixelFormat(frame.pointee.format), SWS_BICUBIC, nil, nil, nil)
        guard let scaler else { throw Failure(description: "cannot convert the picture") }
        let rows = withUnsafeMutablePointer(to: &frame.pointee.data) { data in
            withUnsafeMutablePointer(to: &frame.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { target in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { targetStrides in
                        sws_scale(scaler, planes, strides, 0, Int32(height), target, targetStrides)
                    }
                }
            }
        }
        guard rows > 0 else { throw Failure(description: "cannot convert the picture") }
    }
}
