import CFFmpeg
import Foundation

/// Reads the parts of an MJPEG stream (`multipart/x-mixed-replace`) from an HTTP body, one JPEG
/// a packet, with every size bounded: a header line, a part's headers, the bytes between parts and
/// the part itself (`FrameLimits.maximumBytes`), announced or not. A part over the limit is refused
/// before it is buffered, so no camera can make Layerwatch hold more than one frame's worth. An
/// empty part is skipped: it has no picture, and the decoder refuses an empty packet.
struct MultipartReader {
    static let maximumLine = 1024
    static let maximumHeaders = 64
    /// Bytes tolerated before the first boundary or between a part and the next one.
    static let maximumGap = 64 * 1024

    private let bytes: AVIOBytes
    /// `--boundary`: how a boundary line starts.
    private let delimiter: [UInt8]
    /// Set when the boundary line was already read (while looking for the end of a part without a
    /// Content-Length): the next part's headers come next.
    private var atHeaders = false

    /// `boundary` is the Content-Type's parameter; without one any line starting `--` is a boundary.
    init(bytes: AVIOBytes, boundary: String?) {
        self.bytes = bytes
        let name = boundary ?? ""
        delimiter = Array((name.hasPrefix("--") ? name : "--" + name).utf8)
    }

    /// Reads the next part into `packet`; throws `AVERROR_EOF` at the closing boundary or when the
    /// server ends the stream between parts.
    mutating func next(into packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        while true {
            if !atHeaders { try skipToBoundary() }
            atHeaders = false
            if let length = try headers() {
                guard length <= FrameLimits.maximumBytes else { throw Self.frameTooLarge }
                guard length > 0 else { continue }
                let data = try packet.allocateData(count: length)
                guard bytes.receive(into: data, count: length) == length else {
                    av_packet_unref(packet)
                    throw bytes.ending(inside: tr("the connection ended inside a frame"))
                }
                return
            }
            let body = try bodyUntilBoundary()
            if !body.isEmpty { return try packet.copyData(from: body) }
        }
    }

    /// Skips lines up to the next boundary line; the closing boundary (`--boundary--`) ends the stream.
    private func skipToBoundary() throws(FFmpegError) {
        var skipped = 0
        while true {
            let line = try bytes.line(limit: Self.maximumGap, tooLong: FFmpegError.protocolViolation(tr("no part boundary came")))
            if line.starts(with: delimiter) {
                if line.count >= delimiter.count + 2, line[delimiter.count...].starts(with: "--".utf8) {
                    throw FFmpegError(code: lw_averror_eof(), stage: .read)
                }
                return
            }
            skipped += line.count + 1
            guard skipped <= Self.maximumGap else { throw FFmpegError.protocolViolation(tr("no part boundary came")) }
        }
    }

    /// Reads a part's headers up to the blank line; returns its Content-Length, if any.
    private func headers() throws(FFmpegError) -> Int? {
        var length: Int?
        for _ in 0..<Self.maximumHeaders {
            let line = try bytes.line(limit: Self.maximumLine, tooLong: FFmpegError.protocolViolation(tr("a part header is too long")))
            if line.isEmpty { return length }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":"),
                  text[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" else { continue }
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard value.count <= 20, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) else {
                throw FFmpegError.protocolViolation(tr("a part has an invalid Content-Length"))
            }
            // More digits than an Int holds is still a number, and far over the limit.
            length = Int(value) ?? Int.max
        }
        throw FFmpegError.protocolViolation(tr("a part has too many header lines"))
    }

    /// A part without a Content-Length: its bytes up to the line break before the next boundary line,
    /// which is consumed too. The line break that ended the headers counts as one, so a boundary
    /// right after them ends an empty part.
    private mutating func bodyUntilBoundary() throws(FFmpegError) -> [UInt8] {
        let needle = [UInt8(ascii: "\n")] + delimiter
        var body = [UInt8(ascii: "\n")]
        while true {
            let value = try bytes.byte()
            body.append(value)
            if value == needle.last, body.count >= needle.count, body.suffix(needle.count).elementsEqual(needle) {
                break
            }
            guard body.count <= 1 + FrameLimits.maximumBytes + needle.count else { throw Self.frameTooLarge }
        }
        body.removeLast(needle.count)
        if body.last == UInt8(ascii: "\r") { body.removeLast() }
        body = Array(body.dropFirst())
        let rest = try bytes.line(limit: Self.maximumLine, tooLong: FFmpegError.protocolViolation(tr("a part boundary is too long")))
        if rest.starts(with: "--".utf8) {
            // The closing boundary: this part is the last.
            atHeaders = false
        } else {
            atHeaders = true
        }
        return body
    }

    static var frameTooLarge: FFmpegError {
        .protocolViolation(String(format: tr("the camera sent a frame larger than %ld MiB"), FrameLimits.maximumBytes >> 20))
    }
}
