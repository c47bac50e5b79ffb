import CFFmpeg
import Foundation

/// An opened demuxer for an RTSP camera or a local file and its video stream, tuned for live
/// latency: no input buffering, TCP for RTSP, a tiny probe, and no `avformat_find_stream_info` when
/// the RTSP SDP already names the codec with its parameter sets. RTSP H.264 is not parsed at all:
/// FFmpeg's H.264 parser can close a picture only when the next one begins, a frame late, so its
/// NAL units go to the decoder as soon as each is complete (`H264NALAssembler`) and a picture is
/// decoded as soon as its last slice is in. RTSP is always read by the RTSP demuxer over TCP/TLS only, its redirects
/// watched by a `RedirectGuard`; files never reach the network. (HTTP cameras are `HTTPInput`.)
final class MediaInput: PacketSource {
    let context: UnsafeMutablePointer<AVFormatContext>
    private let videoStreamIndex: Int32
    let probedStreamInfo: Bool
    /// Joins the RTP depacketiser's fragments into NAL units, when packets are not parsed into pictures.
    private let nalAssembler: H264NALAssembler?
    /// Watches an RTSP client's redirects for as long as the context lives (nil for files).
    private let redirectGuard: RedirectGuard?

    /// Opens `source`; throws the raw FFmpeg error code for the classifier.
    init(source: StreamSource, gate: InterruptGate, options: SessionOptions) throws(FFmpegError) {
        guard var context = avformat_alloc_context() else { throw FFmpegError(code: lw_averror(ENOMEM), stage: .open) }
        var format: UnsafePointer<AVInputFormat>?
        if case .rtsp = source {
            let watcher = RedirectGuard(source: source, gate: gate)
            watcher.watch(context)
            context.pointee.interrupt_callback = watcher.callback
            redirectGuard = watcher
            // Never a guess from what the server sends: an RTSP URL is read by the RTSP demuxer.
            format = av_find_input_format("rtsp")
        } else {
            context.pointee.interrupt_callback = gate.callback
            redirectGuard = nil
        }
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in Self.demuxerOptions(for: source, options: options) {
            av_dict_set(&dictionary, key, value, 0)
        }
        var contextPointer: UnsafeMutablePointer<AVFormatContext>? = context
        let opened = avformat_open_input(&contextPointer, source.ffmpegURL, format, &dictionary)
        guard opened >= 0, let openedContext = contextPointer else {
            // avformat_open_input frees the context on failure.
            redirectGuard?.watch(nil)
            if let refusal = redirectGuard?.refusal {
                throw FFmpegError(code: opened, stage: .open, detail: refusal, failure: .protocolError(refusal))
            }
            throw FFmpegError(code: opened, stage: .open)
        }
        context = openedContext

        // No packet has been read yet, so no parser exists: with NOPARSE none ever will.
        let unparsed = Self.isRTSPH264(context)
        if unparsed { context.pointee.flags |= AVFMT_FLAG_NOPARSE }
        var probed = false
        if !unparsed && !Self.codecParametersKnown(context) {
            probed = true
            // With `nobuffer` the packets read while probing would be thrown away, and with them the
            // first keyframe (or a still image's only picture): keep them when probing is needed.
            context.pointee.flags &= ~AVFMT_FLAG_NOBUFFER
            let found = avformat_find_stream_info(context, nil)
            if found < 0 {
                var doomed: UnsafeMutablePointer<AVFormatContext>? = context
                avformat_close_input(&doomed)
                throw FFmpegError(code: found, stage: .open)
            }
        }
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0 else {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&doomed)
            throw FFmpegError(code: index, stage: .open)
        }
        for i in 0..<Int(context.pointee.nb_streams) where i != Int(index) {
            context.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
        }
        self.context = context
        self.videoStreamIndex = index
        self.probedStreamInfo = probed
        self.nalAssembler = unparsed ? H264NALAssembler() : nil
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&doomed)
    }

    var stream: UnsafeMutablePointer<AVStream> { context.pointee.streams[Int(videoStreamIndex)]! }

    /// The demuxer's short name ("rtsp", "mov,mp4,m4a,3gp,3g2,mj2", "jpeg_pipe", …).
    var formatName: String { String(cString: context.pointee.iformat.pointee.name) }

    var isStillImage: Bool { formatName.hasSuffix("_pipe") || formatName == "image2" }

    var timeBase: AVRational { stream.pointee.time_base }

    /// Reads the next packet of the video stream into `packet` (for unparsed H.264, the next complete
    /// NAL unit), skipping any other stream's.
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        while true {
            if let nalAssembler, nalAssembler.take(into: packet) { return }
            let result = av_read_frame(context, packet)
            if result < 0 { throw FFmpegError(code: result, stage: .read) }
            guard packet.pointee.stream_index == videoStreamIndex else {
                av_packet_unref(packet)
                continue
            }
            guard let nalAssembler else { return }
            try nalAssembler.add(packet)
        }
    }

    func makeDecoder(threads: Int) throws(FFmpegError) -> VideoDecoder {
        try VideoDecoder(stream: stream, threads: threads, picturesInChunks: nalAssembler != nil)
    }

    var recordedStream: RecordedStream {
        RecordedStream(codecID: stream.pointee.codecpar.pointee.codec_id, timeBase: timeBase,
                       packets: nalAssembler != nil ? .h264NALUnits : .wholePictures, parameters: UnsafePointer(stream.pointee.codecpar))
    }

    func rewind() throws(FFmpegError) {
        let result = av_seek_frame(context, -1, 0, AVSEEK_FLAG_BACKWARD)
        if result < 0 { throw FFmpegError(code: result, stage: .read) }
    }

    /// Whether the input is RTSP carrying H.264, whose decoder takes NAL units one by one (in
    /// "chunks" mode) and finds parameter sets missing from the SDP in the stream: no probing.
    private static func isRTSPH264(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard String(cString: context.pointee.iformat.pointee.name) == "rtsp" else { return false }
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        return index >= 0 && context.pointee.streams[Int(index)]!.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_H264
    }

    /// Whether the RTSP SDP told the codec and its parameter sets, so decoding can start without
    /// reading ahead to probe.
    private static func codecParametersKnown(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        let name = String(cString: context.pointee.iformat.pointee.name)
        guard name == "rtsp" else { return false }
        for i in 0..<Int(context.pointee.nb_streams) {
            guard let parameters = context.pointee.streams[i]?.pointee.codecpar?.pointee,
                  parameters.codec_type == AVMEDIA_TYPE_VIDEO, parameters.codec_id != AV_CODEC_ID_NONE else { continue }
            switch parameters.codec_id {
            case AV_CODEC_ID_H264, AV_CODEC_ID_HEVC:
                if parameters.extradata_size > 0 { return true }
            default:
                return true
            }
        }
        return false
    }

    private static func demuxerOptions(for source: StreamSource, options: SessionOptions) -> [(String, String)] {
        // A backstop only: the interrupt gate's deadline ends a stall first. When FFmpeg's own socket
        // timeout fires, the RTSP demuxer flushes its queued RTP packets, and that late packet would
        // look like the stream going on.
        let ioTimeout = options.socketTimeoutMicroseconds(for: source)
        switch source {
        case .rtsp:
            // RTSP needs only its control connection (TCP, TLS for rtsps): RTP comes interleaved on
            // it, so no UDP socket is ever opened, whatever the server's SDP or SETUP answer says.
            return [("rtsp_transport", "tcp"), ("fflags", "nobuffer"), ("probesize", "32768"),
                    ("analyzeduration", "0"), ("timeout", ioTimeout), ("max_delay", "0"),
                    ("reorder_queue_size", "0"), ("format_whitelist", "rtsp"), ("protocol_whitelist", "tcp,tls")]
        case .file:
            // A local file never reaches the network, even one that is a playlist or an SDP.
            return [("protocol_whitelist", "file")]
        case .http, .bambuJPEG, .webrtc:
            return []
        }
    }
}
