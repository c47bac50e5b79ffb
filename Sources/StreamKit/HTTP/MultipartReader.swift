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
    /// `--boundary`, the boundary's leading dashes left out: a boundary line is two or more dashes
    /// and the rest of it (see `init`).
    private let delimiter: [UInt8]
    /// Set when the boundary line was already read (while looking for the end of a part without a
    /// Content-Length): the next part's headers come next.
    private var atHeaders = false

    /// `boundary` is the Content-Type's parameter; without one any line starting `--` is a boundary.
    /// Read leniently: cameras that put RFC 2046's two dashes into the parameter itself
    /// (`boundary=--foo`, an Elegoo Centauri Carbon's) start their part lines `--foo` or `----foo`,
    /// so a line of two or more dashes and then the boundary without its own leading dashes is one.
    init(bytes: AVIOBytes, boundary: String?) {
        self.bytes = bytes
        delimiter = Array(("--" + (boundary ?? "").drop { $0 == "-" }).utf8)
    }

    /// The length of the boundary at the start of `line` (its dashes included); nil when it has none.
    private func boundaryLength(_ line: [UInt8]) -> Int? {
        let dashes = line.prefix { $0 == UInt8(ascii: "-") }.count
        guard dashes >= 2, line[(dashes - 2)...].starts(with: delimiter) else { return nil }
        return dashes - 2 + delimiter.count
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
            if let length = boundaryLength(line) {
                if line.count >= length + 2, line[length...].starts(with: "--".utf8) {
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
        let needle = delimiter
        var body = [UInt8(ascii: "\n")]
        while true {
            let value = try bytes.byte()
            body.append(value)
            if value == needle.last, body.count > needle.count, body.suffix(needle.count).elementsEqual(needle),
               let lineStart = body[..<(body.count - needle.count)].lastIndex(where: { $0 != UInt8(ascii: "-") }),
               body[lineStart] == UInt8(ascii: "\n") {
                body.removeSubrange(lineStart...)
                break
            }
            guard body.count <= 1 + FrameLimits.maximumBytes + 2 * needle.count else { throw Self.frameTooLarge }
        }
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
