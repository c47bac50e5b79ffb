import CFFmpeg
import Foundation

/// A libavcodec decoder for the input's video stream, set for low delay: slice threads only (frame
/// threads would hold frames back), `low_delay`, and frames handed out as soon as they decode.
final class VideoDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    let codecName: String
    private var rejections = PictureRejections()
    /// For H.264 decoded in chunks: the timestamp of the picture whose first slice was sent.
    private var chunkedPicture: Int64?
    private let picturesInChunks: Bool
    /// An access unit delimiter for `endUnfinishedPicture`, made once when decoding in chunks.
    private var delimiter: UnsafeMutablePointer<AVPacket>?

    /// A decoder for a demuxed stream. `picturesInChunks`: packets are parts of pictures (H.264 NAL
    /// units), and a picture comes out when its last macroblock row has been decoded
    /// (`AV_CODEC_FLAG2_CHUNKS`).
    convenience init(stream: UnsafeMutablePointer<AVStream>, threads: Int, picturesInChunks: Bool = false) throws(FFmpegError) {
        try self.init(parameters: stream.pointee.codecpar!, timeBase: stream.pointee.time_base, threads: threads,
                      picturesInChunks: picturesInChunks)
    }

    /// A decoder for bare JPEG pictures that arrive without a demuxer (Bambu P1/A1 cameras).
    static func mjpeg(timeBase: AVRational, threads: Int) throws(FFmpegError) -> VideoDecoder {
        try bare(AV_CODEC_ID_MJPEG, timeBase: timeBase, threads: threads)
    }

    /// A decoder for whole pictures of `codec` that arrive without a demuxer, their parameter sets
    /// in band (JPEGs; a WebRTC camera's H.264 access units or VP8 frames).
    static func bare(_ codec: AVCodecID, timeBase: AVRational, threads: Int) throws(FFmpegError) -> VideoDecoder {
        var allocated = avcodec_parameters_alloc()
        defer { avcodec_parameters_free(&allocated) }
        guard let parameters = allocated else { throw FFmpegError(code: lw_averror(ENOMEM), stage: .open) }
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = codec
        return try VideoDecoder(parameters: parameters, timeBase: timeBase, threads: threads)
    }

    private init(parameters: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational, threads: Int,
                 picturesInChunks: Bool = false) throws(FFmpegError) {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(code: lw_averror_decoder_not_found(), stage: .open,
                              detail: String(cString: avcodec_get_name(parameters.pointee.codec_id)))
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError(code: lw_averror(ENOMEM), stage: .open)
        }
        var result = avcodec_parameters_to_context(context, parameters)
        if result >= 0 {
            context.pointee.flags |= AV_CODEC_FLAG_LOW_DELAY
            context.pointee.flags2 |= AV_CODEC_FLAG2_FAST
            if picturesInChunks { context.pointee.flags2 |= AV_CODEC_FLAG2_CHUNKS }
            context.pointee.thread_count = Int32(max(1, threads))
            context.pointee.thread_type = FF_THREAD_SLICE
            // 8K at most: a corrupt or hostile stream cannot make every frame allocate gigabytes.
            context.pointee.max_pixels = Int64(FrameLimits.maximumPixels)
            context.pointee.pkt_timebase = timeBase
            result = avcodec_open2(context, codec, nil)
        }
        if result < 0 {
            var doomed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&doomed)
            throw FFmpegError(code: result, stage: .open)
        }
        self.context = context
        self.codecName = String(cString: codec.pointee.name)
        self.picturesInChunks = picturesInChunks
        if picturesInChunks, let packet = av_packet_alloc() {
            delimiter = packet
            if (try? packet.copyData(from: [0, 0, 0, 1, 9, 0xF0])) == nil { av_packet_free(&delimiter) }
        }
    }

    /// Decodes keyframes only (`skip_frame = AVDISCARD_NONKEY`): enough to keep a stream nobody
    /// looks at warm, at a fraction of the cost.
    var keyframesOnly = false {
        didSet { context.pointee.skip_frame = keyframesOnly ? AVDISCARD_NONKEY : AVDISCARD_DEFAULT }
    }

    /// Skips the in-loop deblocking filter (`skip_loop_filter = AVDISCARD_ALL`), about a third of an
    /// H.264 camera stream's decoding, for views so small that its absence doesn't show.
    var skipsLoopFilter = false {
        didSet { context.pointee.skip_loop_filter = skipsLoopFilter ? AVDISCARD_ALL : AVDISCARD_DEFAULT }
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&doomed)
        av_packet_free(&delimiter)
    }

    /// Feeds one packet (nil drains the decoder at the end of input). Broken packets are skipped (a live
    /// stream resumes at the next keyframe); only running out of memory is thrown, and pictures that
    /// cannot be decoded at all (`PictureRejections`).
    func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(FFmpegError) {
        if let packet {
            if picturesInChunks {
                let slice = H264NALUnits.firstSlice(packet.pointee.data, count: Int(packet.pointee.size))
                guard admitsChunk(slice, timestamp: packet.pointee.pts) else { return }
                try rejections.sending(keyframe: slice?.startsPicture == true && slice?.isIDR == true)
            } else {
                try rejections.sending(keyframe: packet.pointee.flags & AV_PKT_FLAG_KEY != 0)
            }
        }
        let log = FFmpegLog.current
        let mark = log?.appended ?? 0
        let result = avcodec_send_packet(context, packet)
        try rejections.decoded(result: result, log: log?.lines(since: mark) ?? [])
        // Any other error is the packet's (decoders report broken data with several codes, even a
        // bare -1): it is skipped, and `rejections` counts the keyframes that gave no picture.
        if result == lw_averror(ENOMEM) { throw FFmpegError(code: result, stage: .decode) }
    }

    /// Keeps a picture that lost slices on the way from showing or from holding the decoder. A
    /// picture's first slice first ends the picture before it: one whose last slice never came would
    /// otherwise stay open, and the decoder refuses every slice after it until an IDR. A slice of a
    /// picture whose first slice never came is not decoded: the picture would come out with its top
    /// filled in from the picture before.
    private func admitsChunk(_ slice: H264NALUnits.Slice?, timestamp: Int64) -> Bool {
        guard let slice else { return true }
        guard slice.startsPicture else { return timestamp == chunkedPicture }
        chunkedPicture = timestamp
        endUnfinishedPicture()
        return true
    }

    /// What the decoder does at the start of every packet when packets are whole pictures: forgets a
    /// picture still open (undecoded slices are concealed only in a picture that is finished). A
    /// finished picture is already closed, so this changes nothing then. The packet is an access unit
    /// delimiter, decoded out of chunks mode with non-reference pictures skipped, so the decoder
    /// returns at once with no picture and nothing to report.
    private func endUnfinishedPicture() {
        guard let delimiter else { return }
        let flags2 = context.pointee.flags2, skip = context.pointee.skip_frame
        context.pointee.flags2 &= ~AV_CODEC_FLAG2_CHUNKS
        context.pointee.skip_frame = AVDISCARD_NONREF
        _ = avcodec_send_packet(context, delimiter)
        context.pointee.flags2 = flags2
        context.pointee.skip_frame = skip
    }

    /// The next decoded frame into `frame`, or false when the decoder needs more input.
    func receive(into frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> Bool {
        let log = FFmpegLog.current
        let mark = log?.appended ?? 0
        let result = avcodec_receive_frame(context, frame)
        if result == lw_averror_eagain() || result == lw_averror_eof() { return false }
        try rejections.decoded(result: result, log: log?.lines(since: mark) ?? [])
        if result < 0 { throw FFmpegError(code: result, stage: .decode) }
        rejections.pictureDecoded()
        return true
    }

    /// Why the last keyframe gave no picture, for an input that ends there (a snapshot that cannot
    /// be decoded); nil when it gave one.
    var undecodable: FFmpegError? { rejections.failure }

    /// Drops buffered state, after a seek.
    func flush() {
        avcodec_flush_buffers(context)
    }
}
