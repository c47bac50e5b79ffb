import CFFmpeg
import Foundation

/// The two encodings a timelapse needs, in-process through libavcodec (a Flatpak has no ffmpeg
/// command): each picture as it is taken, a full-resolution frame to a JPEG on disk (small enough
/// that a long print's pictures wait on disk, never in memory); and at the end, those JPEGs to an
/// H.264 MP4, `fps` pictures a second, with the first H.264 encoder that opens (libx264 on Debian,
/// OpenH264 in the Flatpak runtime).
public enum TimelapseEncoder {
    /// Why a timelapse picture or video could not be made, in words for a log or a toast.
    public struct Failure: LocalizedError, CustomStringConvertible, Sendable {
        public let description: String
        public var errorDescription: String? { description }

        init(description: String) {
            self.description = description
        }

        /// Writing the video failed with FFmpeg's `code`: "the disk is full", or FFmpeg's words.
        init(writing code: Int32) {
            description = ExclusiveFile.Failure.isDiskFull(averror: code) ? Self.diskFull : FFmpegError(code: code, stage: .read).text
        }

        /// Making or closing the video's file failed.
        init(writing failure: ExclusiveFile.Failure) {
            description = failure.isDiskFull ? Self.diskFull : failure.description
        }

        private static var diskFull: String { tr("the disk is full") }
    }

    /// 4-byte pixels (BGRA or RGBA as `order` says) `width`×`height`, rows `stride` bytes apart, as
    /// a JPEG (4:2:0, quality about 90; an odd last row or column is left out).
    public static func jpeg(_ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, order: PixelOrder) throws(Failure) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else { throw Failure(description: "no JPEG encoder") }
        let width = width & ~1, height = height & ~1
        guard width > 0, height > 0 else { throw Failure(description: "no picture") }
        let encoder = try TimelapseCodecEncoder(codec: codec, width: width, height: height, format: AV_PIX_FMT_YUVJ420P,
                                  timeBase: AVRational(num: 1, den: 25)) { context in
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = 3 * FF_QP2LAMBDA
        }
        let picture = try TimelapsePicture(width: width, height: height, format: AV_PIX_FMT_YUVJ420P)
        try picture.fill(fromBGRA: pixels, stride: stride, order: order, sourceWidth: width, sourceHeight: height)
        picture.frame.pointee.quality = 3 * FF_QP2LAMBDA
        var bytes: [UInt8] = []
        let collect: TimelapseCodecEncoder.PacketSink = { packet, _, _, _ in bytes += packet }
        try encoder.encode(picture.frame, collect)
        try encoder.encode(nil, collect)
        guard !bytes.isEmpty else { throw Failure(description: "the JPEG encoder gave nothing") }
        return bytes
    }

    /// Encodes the JPEG files `pictures`, in order, into an H.264 MP4 at `url` (or the first free
    /// name like it: nothing there is opened), `fps` pictures a second, at the first picture's size
    /// (even), and returns where. Pictures that do not decode are left out. A video that cannot be
    /// written whole (a full disk, a folder not writable) leaves no file.
    @discardableResult
    public static func video(of pictures: [URL], to url: URL, fps: Int = 30) throws(Failure) -> URL {
        guard let first = pictures.first, let size = decodedSize(of: first) else { throw Failure(description: "no picture to make a video of") }
        let width = size.width & ~1, height = size.height & ~1
        let file: ExclusiveFile
        do { file = try ExclusiveFile.create(freeNameLike: url) } catch { throw Failure(writing: error) }
        var whole = false
        defer { if !whole { file.discard() } }
        var made: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&made, nil, "mp4", file.url.path) >= 0, let output = made,
              let stream = avformat_new_stream(output, nil), let io = file.io else {
            avformat_free_context(made)
            throw Failure(description: "cannot make an MP4 file")
        }
        output.pointee.pb = io
        output.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        defer {
            output.pointee.pb = nil
            avformat_free_context(output)
        }
        let encoder = try h264Encoder(width: width, height: height, fps: fps, globalHeader: output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0)
        guard avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context) >= 0 else { throw Failure(description: "bad encoder parameters") }
        stream.pointee.time_base = encoder.context.pointee.time_base
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", "faststart", 0)
        var result = avformat_write_header(output, &options)
        av_dict_free(&options)
        guard result >= 0 else { throw Failure(writing: result) }
        let picture = try TimelapsePicture(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        let write: TimelapseCodecEncoder.PacketSink = { bytes, pts, dts, key throws(Failure) in
            try writePacket(bytes, pts: pts, dts: dts, isKeyframe: key, to: output, stream: stream, from: encoder.context.pointee.time_base)
        }
        var index: Int64 = 0
        for file in pictures {
            guard try picture.fill(fromJPEG: file) else { continue }
            picture.frame.pointee.pts = index
            index += 1
            try encoder.encode(picture.frame, write)
        }
        try encoder.encode(nil, write)
        result = av_write_trailer(output)
        guard result >= 0 else { throw Failure(writing: result) }
        do { try file.close() } catch { throw Failure(writing: error) }
        whole = true
        return file.url
    }

    // MARK: Helpers

    /// The first H.264 encoder that opens at this size.
    private static func h264Encoder(width: Int, height: Int, fps: Int, globalHeader: Bool) throws(Failure) -> TimelapseCodecEncoder {
        var state: UnsafeMutableRawPointer?
        var preferred: [UnsafePointer<AVCodec>] = avcodec_find_encoder_by_name("libx264").map { [$0] } ?? []
        while let codec = av_codec_iterate(&state) {
            if av_codec_is_encoder(codec) != 0, codec.pointee.id == AV_CODEC_ID_H264, !preferred.contains(codec) { preferred.append(codec) }
        }
        for codec in preferred {
            if let encoder = try? TimelapseCodecEncoder(codec: codec, width: width, height: height, format: AV_PIX_FMT_YUV420P,
                                          timeBase: AVRational(num: 1, den: Int32(fps)), configure: { context in
                context.pointee.framerate = AVRational(num: Int32(fps), den: 1)
                context.pointee.gop_size = Int32(fps * 2)
                context.pointee.max_b_frames = 0
                if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
                av_opt_set(context.pointee.priv_data, "preset", "veryfast", 0)
                av_opt_set(context.pointee.priv_data, "crf", "23", 0)
            }) { return encoder }
        }
        throw Failure(description: "no H.264 encoder could be opened")
    }

    private static func writePacket(_ bytes: [UInt8], pts: Int64, dts: Int64, isKeyframe: Bool, to output: UnsafeMutablePointer<AVFormatContext>,
                                    stream: UnsafeMutablePointer<AVStream>, from timeBase: AVRational) throws(Failure) {
        guard let packet = av_packet_alloc() else { throw Failure(description: "out of memory") }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        guard av_new_packet(packet, Int32(bytes.count)) >= 0 else { throw Failure(description: "out of memory") }
        bytes.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        packet.pointee.pts = pts
        packet.pointee.dts = dts
        packet.pointee.duration = 1  // one picture (the encoder's time base): the last one is shown too
        packet.pointee.stream_index = stream.pointee.index
        if isKeyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        let result = av_interleaved_write_frame(output, packet)
        guard result >= 0 else { throw Failure(writing: result) }
    }

    /// The size of the JPEG at `url`, decoded.
    private static func decodedSize(of url: URL) -> PixelSize? {
        var picture = TimelapsePicture.decodeJPEG(url)
        guard let decoded = picture else { return nil }
        defer { av_frame_free(&picture) }
        return PixelSize(width: Int(decoded.pointee.width), height: Int(decoded.pointee.height))
    }
}
