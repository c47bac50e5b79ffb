import Foundation
import StreamKit

/// The Prusa family's status side: PrusaLink in the printer's Buddy firmware (MK4, XL, Core One,
/// MINI), `prusalink://HOST[:PORT]`, logged in as `maker` with the password the printer shows. The
/// password comes from `--code-from-stdin`, a saved printer (`--printer`), or the URL
/// (`prusalink://maker:PASSWORD@HOST`, or `?key=PASSWORD`). PrusaLink lists no camera: the
/// printer's camera is a URL the user gives.
struct PrusaLinkStatusFamily: StatusURLFamily {
    let declared = StatusDeclaration(scheme: "prusalink", usualPort: StatusEndpoint.prusaLinkPort, urlExample: "prusalink://HOST",
                                     aliases: ["prusa"], traits: .speaksHTTP)
    var cameraListRefusal: String? { tr("PrusaLink lists no camera: add the printer's camera by its URL (a Buddy3D camera's is rtsp://CAMERA/live)") }

    func endpoint(_ url: URLComponents, host: String, key: String?, secret: String?) throws(StatusEndpoint.ParseError) -> StatusEndpoint {
        let password = try required(key ?? url.password?.removingPercentEncoding ?? url.password,
                                    missing: tr("a prusalink:// URL needs the printer's password (Settings → Network → PrusaLink on the printer): give it with --code-from-stdin, or name a saved printer with --printer"))
        return .prusaLink(host: host, port: url.port ?? usualPort, password: password)
    }

    func description(of endpoint: StatusEndpoint, host: String) -> String {
        "prusalink://maker:\(Redactor.mask)@\(host):\(endpoint.port)"
    }

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection {
        PrusaLinkConnection(baseURL: endpoint.baseURL!, password: endpoint.secret ?? "")
    }
}

extension StatusEndpoint {
    public static let prusaLinkPort = 80

    /// A Prusa printer's PrusaLink and the password it shows.
    public static func prusaLink(host: String, port: Int, password: String) -> StatusEndpoint {
        StatusEndpoint(family: PrusaLinkStatusFamily(), host: host, port: port, secret: password)
    }
}
