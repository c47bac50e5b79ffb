import CFFmpeg

/// Byte-level reading of an AVIOContext for the parsers that read one themselves: a byte, a line of
/// bounded length, or an exact count, each throwing FFmpeg's code (end of input, interruption) when
/// the input ends first.
struct AVIOBytes {
    let io: UnsafeMutablePointer<AVIOContext>

    /// Why the input ended: FFmpeg's error (an interruption, a socket error) or the end of input.
    var ending: FFmpegError {
        let error = io.pointee.error
        return FFmpegError(code: error < 0 ? error : lw_averror_eof(), stage: .read)
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

    /// Reads exactly `count` bytes into `destination`.
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(FFmpegError) {
        var done = 0
        while done < count {
            let chunk = Int32(min(count - done, 1 << 20))
            let result = avio_read(io, destination + done, chunk)
            if result <= 0 { throw result < 0 && result != lw_averror_eof() ? FFmpegError(code: result, stage: .read) : ending }
            done += Int(result)
        }
    }
}
