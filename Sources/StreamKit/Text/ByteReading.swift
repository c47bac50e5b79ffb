/// A byte stream read byte by byte where a protocol is line-based (MJPEG part headers from
/// `AVIOBytes`, HTTP response heads from `HTTPConnection`), so both read lines by one bounded rule.
protocol ByteReading: AnyObject {
    /// The next byte; throws FFmpeg's reason (end of input, interruption) when there is none.
    func byte() throws(FFmpegError) -> UInt8
}

extension ByteReading {
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
}
