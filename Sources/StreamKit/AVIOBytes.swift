import CFFmpeg

/// An opened AVIOContext, closed when the last holder lets go, read by the inputs that parse a byte
/// stream themselves (HTTP's MJPEG and snapshots, Bambu P1/A1 frames): a byte, a line of bounded
/// length or a count of bytes, with FFmpeg's reason (end of input, interruption) when it ends first.
final class AVIOBytes {
    let io: UnsafeMutablePointer<AVIOContext>

    /// Takes over `io`: it is closed with this object.
    init(io: UnsafeMutablePointer<AVIOContext>) {
        self.io = io
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
        let ending = ending
        return ending.code == lw_averror_eof() ? .protocolViolation(detail()) : ending
    }

    func byte() throws(FFmpegError) -> UInt8 {
        let value = UInt8(truncatingIfNeeded: avio_r8(io))
        if value == 0, avio_feof(io) != 0 { throw ending }
        return value
    }

    /// The next line without its CR LF (or bare LF); throws `tooLong` past `limit` bytes.
    func line(limit: Int, tooLong: @autoclosure () -> FFmpegError) throws(FFmpegError) -> [UInt8] {
        var line: [UInt8] = []
        while true {
            let value = try byte()
            if value == UInt8(ascii: "\n") { break }
            guard line.count < limit else { throw tooLong() }
            line.append(value)
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
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
