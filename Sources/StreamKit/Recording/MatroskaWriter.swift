import CFFmpeg
import Foundation

/// One recording file: the camera's compressed pictures copied into Matroska as they come, never
/// re-encoded. Matroska because a file cut short (the app or the machine stopped) still plays: its
/// clusters are written one by one, each at most a second long, and flushed to the file as each
/// closes, so a cut loses at most the last second.
final class MatroskaWriter {
    /// What the file holds: the codec, its size, and its extradata (H.264 parameter sets).
    struct Format: Equatable {
        var codecID: AVCodecID
        var width: Int
        var height: Int
        var extradata: [UInt8]
    }

    /// The file's path: the first free name like the one asked for.
    let url: URL
    let format: Format
    /// True once the first picture is in the file whole (later ones may be cut short by a full
    /// disk, and play up to there); a file closed without it is removed.
    var holdsPicture: Bool { firstPictureEnd.map { file.size >= $0 } ?? false }
    private let file: ExclusiveFile
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private var packet = av_packet_alloc()
    private var lastMilliseconds: Int64 = -1
    private var finished = false
    /// Where the first picture ends in the file, at the most (`pictureOverhead` for its cluster
    /// and block headers).
    private var firstPictureEnd: Int64?
    private static let pictureOverhead: Int64 = 64

    /// Creates a new file at `url`, or at the first free name like it ("name (2).mkv"): nothing
    /// there is ever opened, and writes the file's header.
    init(url: URL, format: Format) throws(RecordingFailure) {
        do { file = try ExclusiveFile.create(freeNameLike: url) } catch { throw .creating(error) }
        self.url = file.url
        self.format = format
        var made: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&made, nil, "matroska", file.url.path) >= 0, let made,
              let stream = avformat_new_stream(made, nil), let io = file.io else {
            if let made { avformat_free_context(made) }
            file.discard()
            throw .cannotCreate(path: file.url.path, reason: FFmpegError(code: lw_averror(ENOMEM), stage: .open).text)
        }
        context = made
        self.stream = stream
        made.pointee.pb = io
        made.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        let parameters = stream.pointee.codecpar!
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = format.codecID
        parameters.pointee.width = Int32(format.width)
        parameters.pointee.height = Int32(format.height)
        if !format.extradata.isEmpty, let extradata = av_mallocz(format.extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) {
            extradata.copyMemory(from: format.extradata, byteCount: format.extradata.count)
            parameters.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
            parameters.pointee.extradata_size = Int32(format.extradata.count)
        }
        stream.pointee.time_base = AVRational(num: 1, den: 1000)
        var options: OpaquePointer?
        av_dict_set(&options, "cluster_time_limit", "1000", 0)
        av_dict_set(&options, "flush_packets", "1", 0)
        let result = avformat_write_header(made, &options)
        av_dict_free(&options)
        guard result >= 0 else {
            close()
            throw RecordingFailure.writing(result, path: file.url.path)
        }
    }

    deinit {
        close()
    }

    /// Bytes in the file so far (all of it once finished).
    var byteCount: Int64 {
        guard let pb = context?.pointee.pb else { return finalByteCount }
        return max(0, avio_tell(pb))
    }
    private var finalByteCount: Int64 = 0

    /// Writes one picture shown `milliseconds` after the recording began (kept increasing).
    func write(_ bytes: UnsafeRawBufferPointer, milliseconds: Int64, isKeyframe: Bool) throws(RecordingFailure) {
        guard let context, let packet, !finished else { return }
        guard av_new_packet(packet, Int32(bytes.count)) >= 0 else {
            throw .writeFailed(path: url.path, reason: FFmpegError(code: lw_averror(ENOMEM), stage: .read).text)
        }
        defer { av_packet_unref(packet) }
        if let base = bytes.baseAddress { packet.pointee.data.update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        let time = max(milliseconds, lastMilliseconds + 1)
        lastMilliseconds = time
        packet.pointee.pts = time
        packet.pointee.dts = time
        packet.pointee.stream_index = stream.pointee.index
        if isKeyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        av_packet_rescale_ts(packet, AVRational(num: 1, den: 1000), stream.pointee.time_base)
        if firstPictureEnd == nil { firstPictureEnd = byteCount + Int64(bytes.count) + Self.pictureOverhead }
        let result = av_write_frame(context, packet)
        guard result >= 0 else { throw RecordingFailure.writing(result, path: url.path) }
    }

    /// Writes the file's index and closes it. A file whose writing failed is closed as it is; one
    /// without a whole picture (`holdsPicture`) is removed.
    func finish() throws(RecordingFailure) {
        guard let context, !finished else { return }
        finished = true
        let result = av_write_trailer(context)
        finalByteCount = byteCount
        close()
        if result < 0 { throw RecordingFailure.writing(result, path: url.path) }
    }

    /// Frees the muxer and closes the file, removing it when it holds no picture.
    private func close() {
        av_packet_free(&packet)
        guard let context else { return }
        if finalByteCount == 0 { finalByteCount = byteCount }
        context.pointee.pb = nil
        avformat_free_context(context)
        self.context = nil
        try? file.close()
        if !holdsPicture {
            file.discard()
            finalByteCount = 0
        }
    }
}
