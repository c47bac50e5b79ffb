import Foundation
import StreamKit

/// The OctoPrint family's status side: its REST API, which always wants a key,
/// `octoprint://HOST[:PORT]?key=KEY`.
struct OctoPrintStatusFamily: StatusURLFamily {
    let declared = StatusDeclaration(scheme: "octoprint", usualPort: StatusEndpoint.octoprintPort, urlExample: "octoprint://HOST?key=KEY",
                                     traits: [.speaksHTTP, .cancelsPrints])

    func endpoint(_ url: URLComponents, host: String, key: String?, secret: String?) throws(StatusEndpoint.ParseError) -> StatusEndpoint {
        .octoprint(host: host, port: url.port ?? usualPort,
                   apiKey: try required(key, missing: tr("an octoprint:// URL needs the API key: octoprint://HOST?key=KEY")))
    }

    func description(of endpoint: StatusEndpoint, host: String) -> String {
        "octoprint://\(host):\(endpoint.port)?key=\(Redactor.mask)"
    }

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection {
        OctoPrintConnection(baseURL: endpoint.baseURL!, apiKey: endpoint.secret ?? "")
    }

    /// The webcam block of OctoPrint's `/api/settings`.
    func importCameras(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [ImportedCamera] {
        let base = endpoint.baseURL!
        let answer = try CameraImport.object(HTTPStatusAPI(baseURL: base, key: ("X-Api-Key", endpoint.secret ?? "")), "/api/settings", stop: stop)
        guard let webcam = answer["webcam"] as? [String: Any] else {
            throw .protocolError(tr("OctoPrint's settings have no webcam block — the API key may lack the webcam permission"))
        }
        return CameraImport.octoprintCameras(webcam, base: base)
    }
}

extension StatusEndpoint {
    public static let octoprintPort = 80

    /// OctoPrint's REST API and its key.
    public static func octoprint(host: String, port: Int, apiKey: String) -> StatusEndpoint {
        StatusEndpoint(family: OctoPrintStatusFamily(), host: host, port: port, secret: apiKey)
    }
}
