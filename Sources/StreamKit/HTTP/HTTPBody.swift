import CFFmpeg
import Foundation

/// The body of an answer `HTTPFetch` accepted, read as its head frames it (chunked, Content-Length,
/// or until the connection closes) and refused with `tooLarge` as soon as the announced or received
/// size passes `limit`, before anything parses it.
enum HTTPBody {
    /// Longest chunk-size line read (a size and any chunk extensions).
    private static let maximumSizeLine = 1024

    static func read(_ head: HTTPResponseHead, from connection: HTTPConnection, limit: Int,
                     tooLarge: @autoclosure () -> FFmpegError) throws(FFmpegError) -> [UInt8] {
        let codings = head.values("transfer-encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty {
            // Layerwatch asks for no compression: chunked is the only coding an answer may use.
            guard codings == ["chunked"] else { throw HTTPResponseHead.notHTTP }
            return try chunked(from: connection, limit: limit, tooLarge: tooLarge())
        }
        let lengths = Set(head.values("content-length"))
        guard let text = lengths.first else { return try untilClosed(from: connection, limit: limit, tooLarge: tooLarge()) }
        guard lengths.count == 1, (1...18).contains(text.count), text.utf8.allSatisfy({ (48...57).contains($0) }),
              let length = Int(text) else { throw HTTPResponseHead.notHTTP }
        guard length <= limit else { throw tooLarge() }
        var body: [UInt8] = []
        body.reserveCapacity(length)
        try append(length, from: connection, to: &body)
        return body
    }

    /// Chunks until the last one, then any trailer fields (an end of input in place of the
    /// trailer's blank line is let pass).
    private static func chunked(from connection: HTTPConnection, limit: Int,
                                tooLarge: @autoclosure () -> FFmpegError) throws(FFmpegError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try insideAnswer { () throws(FFmpegError) in
                try connection.line(limit: maximumSizeLine, tooLong: HTTPResponseHead.notHTTP)
            }
            let digits = line.prefix { $0 != UInt8(ascii: ";") }.trimmingBlanks
            guard (1...15).contains(digits.count), let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                throw HTTPResponseHead.notHTTP
            }
            if size == 0 { break }
            guard size <= limit - body.count else { throw tooLarge() }
            try append(size, from: connection, to: &body)
            let end = try insideAnswer { () throws(FFmpegError) in try connection.line(limit: 1, tooLong: HTTPResponseHead.notHTTP) }
            guard end.isEmpty else { throw HTTPResponseHead.notHTTP }
        }
        for _ in 0...HTTPResponseHead.maximumFields {
            do {
                if try connection.line(limit: HTTPResponseHead.maximumLine, tooLong: HTTPResponseHead.notHTTP).isEmpty { return body }
            } catch where error.code == lw_averror_eof() {
                return body
            }
        }
        throw HTTPResponseHead.notHTTP
    }

    private static func untilClosed(from connection: HTTPConnection, limit: Int,
                                    tooLarge: @autoclosure () -> FFmpegError) throws(FFmpegError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            do {
                try connection.append(upTo: 64 * 1024, to: &body)
            } catch where error.code == lw_averror_eof() {
                return body
            }
            if body.count > limit { throw tooLarge() }
        }
    }

    /// Appends exactly `count` bytes to `body`.
    private static func append(_ count: Int, from connection: HTTPConnection, to body: inout [UInt8]) throws(FFmpegError) {
        let wanted = body.count + count
        while body.count < wanted {
            try insideAnswer { () throws(FFmpegError) in try connection.append(upTo: wanted - body.count, to: &body) }
        }
    }

    /// `read`'s result; an end of input there is a connection that ended inside the answer.
    private static func insideAnswer<T>(_ read: () throws(FFmpegError) -> T) throws(FFmpegError) -> T {
        do {
            return try read()
        } catch {
            throw error.told(ifEnd: tr("the connection ended inside the server's answer"))
        }
    }
}
