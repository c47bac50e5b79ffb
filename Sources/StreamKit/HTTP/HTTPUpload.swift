import CFFmpeg
import Foundation
import Glibc

/// A request whose body is a file on disk, streamed in chunks of `chunkBytes` through one buffer
/// reused (a sliced file of hundreds of megabytes costs no more memory than a small one): as
/// `multipart/form-data` (Moonraker, OctoPrint, Flashforge) or as the raw body (PrusaLink's PUT),
/// its Content-Length computed before the first byte goes. The stop signal interrupts it between
/// chunks and inside I/O; each chunk re-arms the deadline, so only a stalled upload times out. The
/// answer is read size-capped as `HTTPFetch.post`'s, whatever its status. No redirect is followed,
/// and a Digest answer goes only from a challenge already known (`HTTPDigest` after a cheap
/// request): a large body is never sent twice to find one.
public enum HTTPUpload {
    /// The bytes read from disk and sent at a time.
    public static let chunkBytes = 256 * 1024

    /// What the body holds around the file.
    public struct Body: Sendable {
        let file: URL
        /// Where in the file the bytes sent begin (an Elegoo printer takes a file a chunk a request).
        let offset: Int64
        let size: Int64
        let type: String
        /// What goes before the file's bytes, and after.
        let before: [UInt8]
        let after: [UInt8]

        /// The file (its `size` bytes from `offset`) as a `multipart/form-data` part named `field`
        /// (its file name `name`), after the text `fields`.
        public static func multipart(file: URL, name: String, offset: Int64 = 0, size: Int64, field: String,
                                     fields: [(String, String)]) -> Body {
            let boundary = "LayerwatchBoundary" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
            var before = ""
            for (key, value) in fields {
                before += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(key))\"\r\n\r\n\(value)\r\n"
            }
            before += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(field))\"; filename=\"\(quoted(name))\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n"
            return Body(file: file, offset: offset, size: size, type: "multipart/form-data; boundary=\(boundary)",
                        before: Array(before.utf8), after: Array("\r\n--\(boundary)--\r\n".utf8))
        }

        /// The file's bytes as the whole body.
        public static func raw(file: URL, size: Int64, type: String = "application/octet-stream") -> Body {
            Body(file: file, offset: 0, size: size, type: type, before: [], after: [])
        }

        /// The body's length, announced up front.
        var length: Int64 { Int64(before.count) + size + Int64(after.count) }

        /// A name or file name inside a quoted header parameter, as browsers write it (HTML's
        /// form encoding): a quote or a line break cannot end it.
        private static func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
    }

    /// Sends `body` to `url` with `method` and `headers` (values may be secrets: list them in
    /// `secrets`, with a Digest's password), calling `progress` with the file's bytes sent after
    /// each chunk, until the answer comes, `stop` is signalled, or nothing moves for `timeout`
    /// seconds. Throws only when no answer came (a refusal is an answer: read its status).
    public static func send(_ url: URL, method: String = "POST", body: Body, headers: [(String, String)] = [],
                            secrets: [String] = [], digest: HTTPDigest? = nil, timeout: TimeInterval, stop: StopSignal,
                            progress: (Int64) -> Void) throws(HTTPFetch.Failure) -> HTTPFetch.Answer {
        try HTTPFetch.performing(url, secrets: secrets + (digest.map { [$0.password] } ?? []), timeout: timeout,
                                 stop: stop) { watcher throws(FFmpegError) in
            guard let origin = URLOrigin(url), origin.isWeb else { throw FFmpegError(code: lw_averror(EINVAL), stage: .connect) }
            let file = open(body.file.path, O_RDONLY | O_CLOEXEC)
            guard file >= 0 else { throw FFmpegError(code: lw_averror(errno), stage: .open) }
            defer { close(file) }
            guard lseek(file, off_t(body.offset), SEEK_SET) == off_t(body.offset) else { throw FFmpegError(code: lw_averror(errno), stage: .open) }
            let login = HTTPRequest.target(of: url).flatMap { digest?.authorization(method: method, uri: $0) }
            let sent = headers + (HTTPRequest.basicAuthorization(url).map { [$0] } ?? []) + (login.map { [$0] } ?? [])
            let connection = try HTTPConnection(to: origin, timeoutMicroseconds: String(Int64(timeout * 1_000_000)),
                                                interrupting: watcher)
            do throws(FFmpegError) {
                try connection.send(HTTPRequest.head(url, origin: origin, headers: sent, method: method,
                                                     content: (body.type, body.length)) + body.before)
                try stream(file, size: body.size, to: connection, watcher: watcher, timeout: timeout, progress: progress)
                try body.after.withUnsafeBufferPointer { buffer throws(FFmpegError) in try connection.send(buffer) }
            } catch where !watcher.shouldInterrupt() {
                // A server may answer (a 401, a 413) and close before taking the whole body: its answer
                // says more than the broken pipe.
                guard let head = try? HTTPResponseHead.read(from: connection) else { throw error }
                return try HTTPFetch.answer(head, from: connection, limit: HTTPFetch.answerLimit)
            }
            return try HTTPFetch.answer(try HTTPResponseHead.read(from: connection), from: connection, limit: HTTPFetch.answerLimit)
        }
    }

    /// Sends `size` bytes of `file` in chunks through one buffer.
    private static func stream(_ file: Int32, size: Int64, to connection: HTTPConnection, watcher: StopWatcher,
                               timeout: TimeInterval, progress: (Int64) -> Void) throws(FFmpegError) {
        var buffer = [UInt8](repeating: 0, count: chunkBytes)
        var sent: Int64 = 0
        while sent < size {
            if watcher.shouldInterrupt() { throw FFmpegError(code: lw_averror_exit(), stage: .read) }
            let wanted = Int(min(Int64(chunkBytes), size - sent))
            var count: Int
            repeat {
                count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, wanted) }
            } while count < 0 && errno == EINTR
            guard count > 0 else {
                // The file can no longer be read, or shrank while it was sent.
                throw count < 0 ? FFmpegError(code: lw_averror(errno), stage: .read)
                    : .protocolViolation(tr("the file changed while it was sent"))
            }
            try buffer.withUnsafeBufferPointer { all throws(FFmpegError) in
                try connection.send(UnsafeBufferPointer(rebasing: all[0..<count]))
            }
            sent += Int64(count)
            watcher.gate.arm(seconds: timeout)
            progress(sent)
        }
    }
}
