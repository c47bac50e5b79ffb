import CFFmpeg
import Foundation

/// One HTTP GET (or POST of JSON) whose whole body is wanted: the JSON Moonraker, OctoPrint and
/// go2rtc answer.
/// Layerwatch speaks the HTTP/1.1 itself over FFmpeg's tcp and tls protocols (`HTTPConnection`), so
/// the interrupt gate, the socket timeout, TLS verification and `FailureClassifier` apply as for
/// cameras, while redirects are its own to follow (`HTTPRedirects`): an API key or password never
/// goes to another scheme, host or port. The head is read in bounded lines (`HTTPResponseHead`) and
/// the body is refused as soon as its length or what arrived passes `limit`, before anything parses
/// it (`HTTPBody`).
public enum HTTPFetch {
    /// The largest answer a status or camera-list request may give (10 MiB).
    public static let maximumBytes = 10 * 1024 * 1024

    /// Why a request failed: the classified failure, and whether the server answered with a 4xx
    /// other than 401/403/404 (OctoPrint's 409 "printer is not operational" is an answer, not an outage).
    public struct Failure: Error, Equatable, Sendable {
        public let failure: StreamFailure
        public let otherClientError: Bool

        public init(failure: StreamFailure, otherClientError: Bool = false) {
            self.failure = failure
            self.otherClientError = otherClientError
        }
    }

    /// GETs `url` with `headers` (values may be secrets: list them in `secrets` so no message shows
    /// them) and Basic auth from its user info, giving up after `timeout` seconds or as soon as
    /// `stop` is signalled. Headers and credentials go only to `url`'s scheme, host and port.
    /// With `json`, POSTs that body instead, and follows no redirect (the body is for `url` only).
    /// With `digest`, answers its challenge (`HTTPDigest`): its password goes in `secrets` too.
    public static func get(_ url: URL, headers: [(String, String)] = [], secrets: [String] = [],
                           timeout: TimeInterval, limit: Int = maximumBytes, json: Data? = nil,
                           digest: HTTPDigest? = nil, stop: StopSignal? = nil) throws(Failure) -> Data {
        try performing(url, secrets: secrets, timeout: timeout, stop: stop) { watcher throws(FFmpegError) in
            Data(try fetch(url, headers: headers, body: json.map(HTTPRequest.Body.json), timeout: timeout, limit: limit,
                           digest: digest, watcher: watcher, everyStatus: false).body)
        }
    }

    /// What a server answered a POST: its status and (up to `answerLimit`) its body, whatever the
    /// status, so a refusal's reason can be read.
    public struct Answer: Sendable {
        public let status: Int
        public let body: Data
        /// The `Location` field, when there is one (a WHEP session's address).
        public let location: String?
    }

    /// The most of an answer to a command that is read: a line of JSON.
    public static let answerLimit = 64 * 1024

    /// POSTs `json` to `url` as `get` does (or sends `method` with it, or without a body when
    /// `json` is nil: a PrusaLink `PUT …/pause`, a `DELETE`), but answers with any status the server
    /// gives (a printer command's refusal carries its reason in the body). Throws only when no
    /// answer came.
    public static func post(_ url: URL, json: Data?, method: String? = nil, headers: [(String, String)] = [],
                            secrets: [String] = [], digest: HTTPDigest? = nil, timeout: TimeInterval) throws(Failure) -> Answer {
        try performing(url, secrets: secrets, timeout: timeout, stop: nil) { watcher throws(FFmpegError) in
            try fetch(url, headers: headers, method: method, body: json.map(HTTPRequest.Body.json), timeout: timeout,
                      limit: answerLimit, digest: digest, watcher: watcher, everyStatus: true)
        }
    }

    /// Sends `method` with `body` to `url` (WebRTC signalling: an SDP offer, a DELETE) and answers
    /// with any status, as `post` does; `interrupting` (a session's gate) stops it too, and no
    /// redirect is followed.
    static func send(_ url: URL, method: String, body: HTTPRequest.Body?, secrets: [String], timeout: TimeInterval,
                     limit: Int = answerLimit, interrupting: Interrupting?) throws(Failure) -> Answer {
        try performing(url, secrets: secrets, timeout: timeout, stop: interrupting) { watcher throws(FFmpegError) in
            try fetch(url, headers: [], method: method, body: body, timeout: timeout, limit: limit, watcher: watcher, everyStatus: true)
        }
    }

    /// Runs one request under its own deadline, FFmpeg log capture and secrets' redaction, and
    /// classifies what it failed with.
    static func performing<T>(_ url: URL, secrets: [String], timeout: TimeInterval, stop: Interrupting?,
                              _ request: (StopWatcher) throws(FFmpegError) -> T) throws(Failure) -> T {
        let source = StreamSource.http(url)
        let redactor = Redactor(secrets: secrets + source.secrets)
        let gate = InterruptGate()
        let watcher = StopWatcher(gate: gate, stop: stop)
        gate.arm(seconds: timeout)
        let capture = FFmpegLog.Capture(redactor: redactor)
        FFmpegLog.begin(capture)
        defer { FFmpegLog.end() }
        do {
            return try request(watcher)
        } catch {
            let classified = FailureClassifier(source: source, redactor: redactor)
                .classify(error, log: capture, deadlineExpired: gate.deadlineExpired, sawPacket: false)
            throw Failure(failure: classified, otherClientError: error.code == lw_averror_http_other_4xx())
        }
    }

    /// The first 2xx answer (any answer with `everyStatus`), following the redirects
    /// `HTTPRedirects` allows when nothing is sent; with `digest`, sent once more after a 401 whose
    /// challenge `HTTPDigest.accept` finds worth it.
    private static func fetch(_ url: URL, headers: [(String, String)], method: String? = nil, body: HTTPRequest.Body?,
                              timeout: TimeInterval, limit: Int, digest: HTTPDigest? = nil, watcher: StopWatcher,
                              everyStatus: Bool) throws(FFmpegError) -> Answer {
        let authorization = HTTPRequest.basicAuthorization(url)
        let sent = headers + (authorization.map { [$0] } ?? [])
        let secret: HTTPRedirects.Secret? = !headers.isEmpty ? .apiKey : authorization != nil || digest != nil ? .password : nil
        var redirects = HTTPRedirects(from: url, secret: secret)
        let socketTimeout = String(Int64(timeout * 1_000_000))
        let verb = method ?? (body == nil ? "GET" : "POST")
        var target = url
        var challenged = false
        while true {
            guard let origin = URLOrigin(target), origin.isWeb else { throw FFmpegError(code: lw_averror(EINVAL), stage: .connect) }
            let answer = HTTPRequest.target(of: target).flatMap { digest?.authorization(method: verb, uri: $0) }
            let connection = try HTTPConnection(to: origin, timeoutMicroseconds: socketTimeout, interrupting: watcher)
            try connection.send(HTTPRequest.make(target, origin: origin, headers: sent + (answer.map { [$0] } ?? []), method: method, body: body))
            let head = try HTTPResponseHead.read(from: connection)
            if head.status == 401, let digest, !challenged, digest.accept(head.values("www-authenticate"), answered: answer != nil) {
                challenged = true
                continue
            }
            if (200..<300).contains(head.status) || everyStatus {
                return try HTTPFetch.answer(head, from: connection, limit: limit)
            }
            guard body == nil, method == nil, HTTPRedirects.statuses.contains(head.status) else { throw head.failure }
            target = try redirects.follow(head.values("location").first, from: target)
        }
    }
}

extension HTTPFetch {
    /// The answer whose head is `head`, its body read from `connection` up to `limit` bytes.
    static func answer(_ head: HTTPResponseHead, from connection: HTTPConnection, limit: Int) throws(FFmpegError) -> Answer {
        let tooLarge = limit >= 1_000_000 ? String(format: tr("the answer is larger than %d MB"), limit / 1_000_000)
            : String(format: tr("the answer is larger than %d kB"), limit / 1024)
        let read = try HTTPBody.read(head, from: connection, limit: limit, tooLarge: .protocolViolation(tooLarge))
        return Answer(status: head.status, body: Data(read), location: head.values("location").first)
    }
}

/// A stop request another thread can give a worker that blocks in network I/O or sleeps between
/// attempts (the status clients): `stop()` interrupts the request in flight and every later wait.
public final class StopSignal: Interrupting, @unchecked Sendable {
    private let gate = InterruptGate()

    public init() {}

    /// Stops for good.
    public func stop() { gate.cancel() }

    public var isStopped: Bool { gate.isCancelled }

    func shouldInterrupt() -> Bool { isStopped }

    /// Sleeps up to `seconds`; false when stopped meanwhile.
    @discardableResult
    public func wait(seconds: TimeInterval) -> Bool { gate.wait(seconds: seconds) }
}

/// The interrupt callback of one fetch: its own deadline, and the worker's stop signal (or the
/// session's gate).
final class StopWatcher: Interrupting {
    let gate: InterruptGate
    let stop: Interrupting?

    init(gate: InterruptGate, stop: Interrupting?) {
        self.gate = gate
        self.stop = stop
    }

    func shouldInterrupt() -> Bool {
        (stop?.shouldInterrupt() ?? false) || gate.shouldInterrupt()
    }
}
