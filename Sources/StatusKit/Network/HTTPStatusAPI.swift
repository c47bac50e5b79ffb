import Foundation
import StreamKit

/// The part the HTTP printer clients (Moonraker, OctoPrint, PrusaLink) share: GETs of JSON from the
/// printer's API with its key or Digest login, size-capped and timed out, failures classified as
/// status failures; and print commands (a POST, PUT or DELETE), whose answer is the outcome.
struct HTTPStatusAPI: Sendable {
    let baseURL: URL
    /// The header the key travels in and the key; nil for a Moonraker that trusts this machine.
    let key: (header: String, value: String)?
    /// The Digest login (PrusaLink's), when the API wants one.
    let digest: HTTPDigest?
    /// One request's deadline.
    static let timeout: TimeInterval = 10
    /// Seconds between two polls: Moonraker and OctoPrint update their state about once a second,
    /// and a status strip does not need more.
    static let pollInterval: TimeInterval = 2

    init(baseURL: URL, key: (header: String, value: String)?, digest: HTTPDigest? = nil) {
        self.baseURL = baseURL
        self.key = key
        self.digest = digest
    }

    /// The headers and the secrets to keep out of messages.
    var headers: [(String, String)] { key.map { [($0.header, $0.value)] } ?? [] }
    var secrets: [String] { (key.map { [$0.value] } ?? []) + (digest.map { [$0.password] } ?? []) }

    /// The JSON object at `path` (which may carry a query); with `posting`, the answer to a POST of
    /// that JSON object.
    func object(_ path: String, posting body: [String: Any]? = nil, stop: StopSignal?) throws(HTTPFetch.Failure) -> [String: Any] {
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL else {
            throw HTTPFetch.Failure(failure: .protocolError("bad path"), otherClientError: false)
        }
        let json = body.map { (try? JSONSerialization.data(withJSONObject: $0)) ?? Data() }  // a POST stays a POST
        let data = try HTTPFetch.get(url, headers: headers, secrets: secrets, timeout: Self.timeout, json: json, digest: digest, stop: stop)
        do {
            return try JSONValue.object(data)
        } catch {
            throw HTTPFetch.Failure(failure: .protocolError(Self.detail(error)), otherClientError: false)
        }
    }

    /// The bytes at `path` (a thumbnail), at most `limit` of them; a path that would leave the
    /// API's scheme, host or port (an absolute address a host sent) is refused, so the key goes
    /// nowhere else.
    func data(_ path: String, limit: Int, stop: StopSignal?) throws(HTTPFetch.Failure) -> Data {
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL, url.scheme == baseURL.scheme,
              url.host == baseURL.host, url.port == baseURL.port else {
            throw HTTPFetch.Failure(failure: .protocolError("bad path"), otherClientError: false)
        }
        return try HTTPFetch.get(url, headers: headers, secrets: secrets, timeout: Self.timeout, limit: limit, digest: digest, stop: stop)
    }

    /// POSTs `json` to `path` (or sends `method` with it, or with no body when it is nil) on a
    /// thread of its own and hands `answer` the outcome: a 2xx is done, 401/403 a rejected key,
    /// a status `refusals` words a refusal in those words, another 4xx or 5xx a refusal with the
    /// host's reason (Moonraker's `error.message`, OctoPrint's `error`, or the text it sent).
    func command(_ path: String, method: String? = nil, json: [String: Any]?, refusals: [Int: String] = [:],
                 answer: @escaping @Sendable (CommandOutcome) -> Void) {
        let body = json.flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL, (json == nil) == (body == nil) else {
            answer(.failed(.protocolError("bad path")))
            return
        }
        let (headers, secrets, digest) = (headers, secrets, digest)
        Thread.detachNewThread {
            do throws(HTTPFetch.Failure) {
                let reply = try HTTPFetch.post(url, json: body, method: method, headers: headers, secrets: secrets, digest: digest,
                                               timeout: Self.timeout)
                answer(refusals[reply.status].map { .refused($0) } ?? Self.outcome(reply, secrets: secrets))
            } catch {
                answer(.failed(StatusFailure(error.failure)))
            }
        }
    }

    /// The outcome a command's answer says.
    static func outcome(_ reply: HTTPFetch.Answer, secrets: [String]) -> CommandOutcome {
        switch reply.status {
        case 200..<300: return .done
        case 401, 403: return .failed(.authRejected)
        case 404: return .failed(.notFound)
        default: return .refused(reason(reply.body, secrets: secrets) ?? String(format: tr("HTTP status %ld"), reply.status))
        }
    }

    /// The host's words for a refusal: `{"error":{"message":…}}` (Moonraker), `{"error":"…"}`
    /// (OctoPrint), or a short plain-text body; one line, at most 200 characters, no secret.
    static func reason(_ body: Data, secrets: [String]) -> String? {
        let object = try? JSONValue.object(body)
        let error = object?["error"]
        let text = JSONValue.string((error as? [String: Any])?["message"]) ?? JSONValue.string(error)
            ?? (object == nil && !body.contains(UInt8(ascii: "<")) ? String(decoding: body.prefix(400), as: UTF8.self) : nil)
        guard let line = text?.split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces), !line.isEmpty else { return nil }
        return TerminalText.safe(Redactor(secrets: secrets).redact(String(line.prefix(200))))
    }

    private static func detail(_ failure: StatusFailure) -> String {
        if case .protocolError(let detail) = failure { return detail }
        return failure.kind
    }
}
