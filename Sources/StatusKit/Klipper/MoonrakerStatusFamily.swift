import Foundation
import StreamKit

/// The Klipper family's status side: Moonraker's HTTP API, `moonraker://HOST[:PORT][?key=KEY]`
/// (or `klipper://`); the key is optional (trusted clients need none).
struct MoonrakerStatusFamily: StatusURLFamily {
    let declared = StatusDeclaration(scheme: "moonraker", usualPort: StatusEndpoint.moonrakerPort, urlExample: "moonraker://HOST",
                                     aliases: ["klipper"], traits: [.speaksHTTP, .cancelsPrints])

    func endpoint(_ url: URLComponents, host: String, key: String?, secret: String?) throws(StatusEndpoint.ParseError) -> StatusEndpoint {
        .moonraker(host: host, port: url.port ?? usualPort, apiKey: key)
    }

    func description(of endpoint: StatusEndpoint, host: String) -> String {
        "moonraker://\(host):\(endpoint.port)" + (endpoint.secret == nil ? "" : "?key=\(Redactor.mask)")
    }

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection {
        MoonrakerConnection(baseURL: endpoint.baseURL!, apiKey: endpoint.secret)
    }

    /// Moonraker's job history (`MoonrakerHistory`).
    func printerHistory(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [RememberedPrint] {
        try MoonrakerHistory.ask(api(endpoint), stop: stop)
    }

    func api(_ endpoint: StatusEndpoint) -> HTTPStatusAPI {
        HTTPStatusAPI(baseURL: endpoint.baseURL!, key: endpoint.secret.map { ("X-Api-Key", $0) })
    }

    /// Moonraker's `/server/webcams/list`; relative URLs are relative to the web interface
    /// (Mainsail or Fluidd on port 80).
    func importCameras(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [ImportedCamera] {
        let answer = try CameraImport.object(api(endpoint), "/server/webcams/list", stop: stop)
        let list = (answer["result"] as? [String: Any])?["webcams"] as? [[String: Any]]
        guard let list else { throw .protocolError(tr("Moonraker's answer has no camera list")) }
        let web = URL(string: "http://\(StreamSource.bracketed(endpoint.host))/")!
        return ListLimit.first(list, ListLimit.cameras, of: "cameras").compactMap { CameraImport.moonrakerCamera($0, web: web) }
    }
}

extension StatusEndpoint {
    public static let moonrakerPort = 7125

    /// Klipper's Moonraker API; the key is optional.
    public static func moonraker(host: String, port: Int, apiKey: String?) -> StatusEndpoint {
        StatusEndpoint(family: MoonrakerStatusFamily(), host: host, port: port, secret: apiKey)
    }
}
