import CFFmpeg

/// An opened AVIOContext, closed when the last holder lets go, read by the inputs that parse a byte
/// stream themselves (HTTP's MJPEG and snapshots, Bambu P1/A1 frames): a byte, a line of bounded
/// length or a count of bytes, with FFmpeg's reason (end of input, interruption) when it ends first.
final class AVIOBytes: ByteReading {
    let io: UnsafeMutablePointer<AVIOContext>

    /// Takes over `io`: it is closed with this object.
    init(io: UnsafeMutablePointer<AVIOContext>) {
        self.io = io
    }

    /// Opens `url` with FFmpeg's protocol `options`, interrupted by `interrupting` (which must
    /// outlive the bytes). `flags` is `AVIO_FLAG_READ`, or for a protocol spoken both ways
    /// `AVIO_FLAG_READ_WRITE | AVIO_FLAG_DIRECT`: a buffered AVIOContext opened for both directions
    /// works as a writer and drops what it reads, while in direct mode reads and writes both go
    /// straight to the protocol. A failure is told as coming from `stage`.
    static func open(_ url: String, flags: Int32, options: [(String, String)], interrupting: Interrupting,
                     stage: FFmpegError.Stage) throws(FFmpegError) -> AVIOBytes {
        var callback = interrupting.callback
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        var opened: UnsafeMutablePointer<AVIOContext>?
        let result = avio_open2(&opened, url, flags, &callback, &dictionary)
        guard result >= 0, let io = opened else { throw FFmpegError(code: result, stage: stage) }
        return AVIOBytes(io: io)
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVIOContext>? = io
        avio_closep(&doomed)
    }

    /// Why the input ended: FFmpeg's error (an interruption, a socket error) or the end of input.
    var ending: FFmpegError {
        let error = io.pointee.error
        return FFmpegError(code: error < 0 ? error : lw_averror_eof(), stage: .read)
    }

    /// `ending`, told as a protocol violation saying `detail` when the peer closed the connection
    /// (an interruption stays one, for the classifier to read against its deadlines).
    func ending(inside detail: @autoclosure () -> String) -> FFmpegError {
        ending.told(ifEnd: detail())
    }

    /// Sends `data` at once (a context opened read-write and direct); a failure is told as coming from `stage`.
    func send(_ data: [UInt8], stage: FFmpegError.Stage) throws(FFmpegError) {
        try data.withUnsafeBufferPointer { buffer throws(FFmpegError) in try send(buffer, stage: stage) }
    }

    /// Sends the bytes in `buffer` at once, as `send(_:stage:)` does (a file's chunk, from a buffer reused).
    func send(_ buffer: UnsafeBufferPointer<UInt8>, stage: FFmpegError.Stage) throws(FFmpegError) {
        avio_write(io, buffer.baseAddress, Int32(buffer.count))
        avio_flush(io)
        let written = io.pointee.error
        guard written >= 0 else { throw FFmpegError(code: written, stage: stage) }
    }

    func byte() throws(FFmpegError) -> UInt8 {
        let value = UInt8(truncatingIfNeeded: avio_r8(io))
        if value == 0, avio_feof(io) != 0 { throw ending }
        return value
    }

    /// Everything left to read (a snapshot's or an API's body), refused with `tooLarge` as soon as
    /// its Content-Length or what arrived passes `limit`.
    func whole(limit: Int, tooLarge: @autoclosure () -> FFmpegError) throws(FFmpegError) -> [UInt8] {
        if avio_size(io) > Int64(limit) { throw tooLarge() }
        var body: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBufferPointer { avio_read_partial(io, $0.baseAddress!, Int32($0.count)) }
            if result == lw_averror_eof() || result == 0 { break }
            if result < 0 { throw FFmpegError(code: result, stage: .read) }
            body += chunk[0..<Int(result)]
            if body.count > limit { throw tooLarge() }
        }
        return body
    }

    /// Reads `count` bytes into `destination`, gathered from however many reads they arrive in, and
    /// returns how many came: fewer only when the input ended first (`ending` says why).
    func receive(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var done = 0
        while done < count {
            let chunk = Int32(min(count - done, 1 << 20))
            let result = avio_read(io, destination + done, chunk)
            if result > 0 { done += Int(result) }
            // avio_read returns less than asked only at the end; asked again, a TLS peer that hung
            // up answers with an error that would hide that end.
            if result < chunk { break }
        }
        return done
    }
}
