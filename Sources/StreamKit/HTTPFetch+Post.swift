import CFFmpeg
import Foundation

extension HTTPFetch {
    /// What a server answered a POST: its status and (up to `answerLimit`) its body, whatever the
    /// status, so a refusal's reason can be read.
    public struct Answer: Sendable {
        public let status: Int
        public let body: Data
    }

    /// The most of an answer to a POST that is read: a command's answer is a line of JSON.
    public static let answerLimit = 64 * 1024

    /// POSTs `json` to `url` with `headers` (list secret values in `secrets`), giving up after
    /// `timeout` seconds. A command is sent once: redirects are not followed (a 3xx is the answer).
    /// Throws only when no answer came (refused, timed out, not HTTP, too large).
    public static func post(_ url: URL, json: Data, headers: [(String, String)] = [], secrets: [String] = [],
                            timeout: TimeInterval) throws(Failure) -> Answer {
        let source = StreamSource.http(url)
        let redactor = Redactor(secrets: secrets + source.secrets)
        let gate = InterruptGate()
        gate.arm(seconds: timeout)
        let capture = FFmpegLog.Capture(redactor: redactor)
        FFmpegLog.begin(capture)
        defer { FFmpegLog.end() }
        do throws(FFmpegError) {
            guard let origin = URLOrigin(url), origin.isWeb else { throw FFmpegError(code: lw_averror(EINVAL), stage: .connect) }
            let sent = headers + (HTTPRequest.basicAuthorization(url).map { [$0] } ?? [])
            let connection = try HTTPConnection(to: origin, timeoutMicroseconds: String(Int64(timeout * 1_000_000)),
                                                interrupting: gate)
            try connection.send(HTTPRequest.make(url, origin: origin, headers: sent, json: json))
            let head = try HTTPResponseHead.read(from: connection)
            let body = try HTTPBody.read(head, from: connection, limit: answerLimit, tooLarge: .protocolViolation(
                String(format: tr("the answer is larger than %d kB"), answerLimit / 1024)))
            return Answer(status: head.status, body: Data(body))
        } catch {
            let classified = FailureClassifier(source: source, redactor: redactor)
                .classify(error, log: capture, deadlineExpired: gate.deadlineExpired, sawPacket: false)
            throw Failure(failure: classified)
        }
    }
}
