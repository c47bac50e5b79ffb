import Foundation
import StreamKit

/// A go2rtc restreamer's API, typed as `go2rtc://[USER:PASSWORD@]HOST[:PORT]` (port 1984; the
/// credentials are go2rtc's `api:` username and password). Print farms put go2rtc in front of
/// printers that take one camera client; its streams become cameras Layerwatch plays over RTSP
/// from the same host (`rtsp://HOST:8554/NAME`), however many viewers there are.
public struct Go2RTCImport: Hashable, Sendable {
    public static let apiPort = 1984
    public static let rtspPort = 8554

    public let host: String
    public let port: Int
    let user: String?
    let password: String?

    /// go2rtc's API at `host` and `port`, with its `api:` username and password when it has them
    /// (the add dialog's fields; `parse` takes the same from a URL).
    public init(host: String, port: Int = apiPort, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
    }

    /// Parses a `go2rtc://` URL; nil for anything else.
    public static func parse(_ text: String) -> Go2RTCImport? {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              components.scheme?.lowercased() == "go2rtc", let raw = components.host, !raw.isEmpty else { return nil }
        return Go2RTCImport(host: StreamSource.unbracketed(raw), port: components.port ?? apiPort,
                            user: components.user, password: components.password)
    }

    /// The API's password, to scrub from any text.
    public var secrets: [String] { password.map { [$0] } ?? [] }

    /// Every stream go2rtc has, by name, as an RTSP camera on this host. What the streams are made
    /// from (their producers' URLs, which hold the printers' codes) is neither kept nor shown.
    public func cameras(stop: StopSignal? = nil) throws(StatusFailure) -> [ImportedCamera] {
        let bracketed = StreamSource.bracketed(host)
        var api = URLComponents()
        api.scheme = "http"
        api.host = bracketed
        api.port = port
        api.user = user
        api.password = password
        api.path = "/api/streams"
        guard let url = api.url else { throw .protocolError(tr("not a go2rtc address")) }
        let streams: [String: Any]
        do {
            streams = try JSONValue.object(try HTTPFetch.get(url, secrets: secrets, timeout: HTTPStatusAPI.timeout, stop: stop))
        } catch let failure as HTTPFetch.Failure {
            throw StatusFailure(failure.failure)
        } catch let failure as StatusFailure {
            throw failure
        } catch {
            throw .protocolError("\(error)")
        }
        return ListLimit.first(streams.keys.sorted(), ListLimit.streams, of: "go2rtc streams").compactMap { name in
            guard streams[name] is [String: Any],
                  let path = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            else { return nil }
            return ImportedCamera(name: BidiControls.removed(from: name), service: "go2rtc", url: "rtsp://\(bracketed):\(Self.rtspPort)/\(path)")
        }
    }
}

extension Go2RTCImport: CustomStringConvertible {
    /// The address for messages, its password masked.
    public var description: String {
        let bracketed = StreamSource.bracketed(host)
        let credentials = user.map { "\($0):\(Redactor.mask)@" } ?? ""
        return "go2rtc://\(credentials)\(bracketed):\(port)"
    }
}
