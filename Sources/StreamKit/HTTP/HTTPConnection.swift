import CFFmpeg
import Foundation

/// One HTTP/1.1 connection `HTTPFetch` speaks itself over FFmpeg's `tcp` or `tls` protocol, because
/// FFmpeg's http protocol follows redirects on its own and sends the caller's headers (an API key)
/// to wherever they point. Through AVIO the interrupt callback, the socket timeout and TLS
/// verification still apply. Reads are buffered here: a read-write AVIOContext only reads straight
/// through.
final class HTTPConnection: ByteReading {
    private let bytes: AVIOBytes
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    private var next = 0
    private var end = 0

    /// Connects to `origin`: tcp for http, tls for https with the certificate checked as for an
    /// https camera (a trusted authority, the host's name).
    init(to origin: URLOrigin, timeoutMicroseconds: String, interrupting: Interrupting) throws(FFmpegError) {
        let secure = origin.scheme == "https"
        var options = [("timeout", timeoutMicroseconds), ("protocol_whitelist", "tcp,tls")]
        if secure { options += HTTPInput.certificateChecks(authorities: nil) }
        let address = "\(secure ? "tls" : "tcp")://\(StreamSource.bracketed(origin.host)):\(origin.port)"
        bytes = try AVIOBytes.open(address, flags: AVIO_FLAG_READ_WRITE | AVIO_FLAG_DIRECT, options: options,
                                   interrupting: interrupting, stage: .connect)
    }

    /// Sends a request; it carries the credentials, so a failure counts as the open's.
    func send(_ request: [UInt8]) throws(FFmpegError) {
        try bytes.send(request, stage: .open)
    }

    /// Sends a part of a request's body (a chunk of a file being uploaded).
    func send(_ chunk: UnsafeBufferPointer<UInt8>) throws(FFmpegError) {
        try bytes.send(chunk, stage: .read)
    }

    func byte() throws(FFmpegError) -> UInt8 {
        if next == end { try fill() }
        defer { next += 1 }
        return buffer[next]
    }

    /// Appends to `data` up to `count` bytes (at least one): what is buffered, else one read's worth.
    /// Throws the end of input as FFmpeg's end-of-file error.
    func append(upTo count: Int, to data: inout [UInt8]) throws(FFmpegError) {
        if next == end { try fill() }
        let taken = min(count, end - next)
        data += buffer[next..<next + taken]
        next += taken
    }

    private func fill() throws(FFmpegError) {
        let result = buffer.withUnsafeMutableBufferPointer { avio_read_partial(bytes.io, $0.baseAddress!, Int32($0.count)) }
        guard result > 0 else { throw FFmpegError(code: result == 0 ? lw_averror_eof() : result, stage: .read) }
        next = 0
        end = Int(result)
    }
}
