import CFFmpeg
import Foundation

/// The status line and header fields of an answer to `HTTPFetch`, read in lines of bounded length
/// and count and refused when they are not HTTP/1.x, so a peer sending garbage fails clearly instead
/// of being read as a body or filling memory.
struct HTTPResponseHead {
    static let maximumLine = 8 * 1024
    static let maximumFields = 100

    let status: Int
    let reason: String
    /// Names lowercased, values without surrounding blanks.
    private let fields: [(name: String, value: String)]

    /// Every value of the field `name` (lowercase), in order.
    func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// The error for an answer that is not HTTP (a bad status line or field, too many or too long).
    static var notHTTP: FFmpegError { .protocolViolation(tr("the server's answer is not HTTP"), stage: .open) }

    /// Reads the head from `connection`, up to and including the blank line that ends it.
    static func read(from connection: ByteReading) throws(FFmpegError) -> HTTPResponseHead {
        let first: [UInt8]
        do {
            first = try connection.line(limit: maximumLine, tooLong: notHTTP)
        } catch {
            throw error.told(ifEnd: tr("the server closed the connection without answering"))
        }
        guard let (status, reason) = statusLine(first) else { throw notHTTP }
        var fields: [(name: String, value: String)] = []
        while true {
            let line: [UInt8]
            do {
                line = try connection.line(limit: maximumLine, tooLong: notHTTP)
            } catch {
                throw error.told(ifEnd: tr("the connection ended inside the server's answer"))
            }
            if line.isEmpty { return HTTPResponseHead(status: status, reason: reason, fields: fields) }
            guard fields.count < maximumFields, let field = field(line) else { throw notHTTP }
            fields.append(field)
        }
    }

    /// `HTTP/1.x NNN reason`: the status and the reason phrase (as sent; quote it through `TerminalText`).
    private static func statusLine(_ line: [UInt8]) -> (Int, String)? {
        let prefix = Array("HTTP/1.".utf8)
        guard line.count >= 12, Array(line[0..<7]) == prefix, isDigit(line[7]), line[8] == UInt8(ascii: " "),
              line[9..<12].allSatisfy(isDigit), line.count == 12 || line[12] == UInt8(ascii: " ") else { return nil }
        let status = line[9..<12].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard status >= 100 else { return nil }
        return (status, String(decoding: line.dropFirst(13), as: UTF8.self))
    }

    /// `name: value`, the name a token (no blank before the colon, no folded continuation line) and
    /// the value free of control characters other than tabs.
    private static func field(_ line: [UInt8]) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              line[..<colon].allSatisfy(isTokenCharacter) else { return nil }
        let value = line[(colon + 1)...]
        guard !value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        return (String(decoding: line[..<colon], as: UTF8.self).lowercased(), String(decoding: value.trimmingBlanks, as: UTF8.self))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// RFC 9110's tchar: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        return isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }

    /// The error FFmpeg's http protocol gives this status (`ff_http_averror`: 400, 401, 403 and 404
    /// each their own, other 4xx and 5xx one each), so callers and `FailureClassifier` read it as
    /// before (an authRejected, a notFound, OctoPrint's 409 as `otherClientError`); any other status
    /// `HTTPFetch` neither reads nor follows is a protocol violation. The reason phrase is quoted
    /// safe for a terminal and left to the classifier, which scrubs secrets from it.
    var failure: FFmpegError {
        let said = String(format: tr("the server answered %ld %@"), status, TerminalText.safe(String(reason.prefix(80))))
        let code: Int32
        switch status {
        case 400: code = lw_averror_http_bad_request()
        case 401: code = lw_averror_http_unauthorized()
        case 403: code = lw_averror_http_forbidden()
        case 404: code = lw_averror_http_not_found()
        case 400..<500: code = lw_averror_http_other_4xx()
        case 500...: code = lw_averror_http_server_error()
        default: code = lw_averror_invaliddata()
        }
        return FFmpegError(code: code, stage: .open, detail: said)
    }
}

extension Collection where Element == UInt8 {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingBlanks: [UInt8] {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        return Array(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
