import Foundation
import StreamKit

/// The part Moonraker's and OctoPrint's clients share: GETs of JSON from the printer's API with its
/// key, size-capped and timed out, failures classified as status failures.
struct HTTPStatusAPI: Sendable {
    let baseURL: URL
    /// The header the key travels in and the key; nil for a Moonraker that trusts this machine.
    let key: (header: String, value: String)?
    /// One request's deadline.
    static let timeout: TimeInterval = 10
    /// Seconds between two polls: Moonraker and OctoPrint update their state about once a second,
    /// and a status strip does not need more.
    static let pollInterval: TimeInterval = 2

    init(baseURL: URL, key: (header: String, value: String)?) {
        self.baseURL = baseURL
        self.key = key
    }

    /// The JSON object at `path` (which may carry a query); with `posting`, the answer to a POST of
    /// that JSON object.
    func object(_ path: String, posting body: [String: Any]? = nil, stop: StopSignal?) throws(HTTPFetch.Failure) -> [String: Any] {
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL else {
            throw HTTPFetch.Failure(failure: .protocolError("bad path"), otherClientError: false)
        }
        let json = body.map { (try? JSONSerialization.data(withJSONObject: $0)) ?? Data() }  // a POST stays a POST
        let data = try HTTPFetch.get(url, headers: key.map { [($0.header, $0.value)] } ?? [],
                                     secrets: key.map { [$0.value] } ?? [], timeout: Self.timeout, json: json, stop: stop)
        do {
            return try JSONValue.object(data)
        } catch {
            throw HTTPFetch.Failure(failure: .protocolError(Self.detail(error)), otherClientError: false)
        }
    }

    private static func detail(_ failure: StatusFailure) -> String {
        if case .protocolError(let detail) = failure { return detail }
        return failure.kind
    }
}
