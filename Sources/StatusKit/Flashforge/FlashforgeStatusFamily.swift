import Foundation
import StreamKit

/// The Flashforge family's status side: the HTTP API of the Adventurer 5M, 5M Pro and AD5X,
/// `flashforge://HOST[:PORT]?serial=SERIAL`, the check code given apart (`--code-from-stdin`, a
/// saved printer's keyring) or as the URL's `key`.
struct FlashforgeStatusFamily: StatusURLFamily {
    /// FlashForge's screen and apps cancel a print (`jobCtl_cmd` `cancel`).
    let declared = StatusDeclaration(scheme: "flashforge", usualPort: StatusEndpoint.flashforgePort,
                                     urlExample: "flashforge://HOST?serial=SERIAL", traits: [.speaksHTTP, .switchableLight, .cancelsPrints])

    func endpoint(_ url: URLComponents, host: String, key: String?, secret: String?) throws(StatusEndpoint.ParseError) -> StatusEndpoint {
        let serial = try required(url.query(item: "serial"),
                                  missing: tr("a flashforge:// URL needs the printer's serial number: flashforge://HOST?serial=SERIAL"))
        let code = try required(key, missing: tr("a flashforge:// URL needs the printer's check code: give it with --code-from-stdin, or name a saved printer with --printer"))
        return .flashforge(host: host, port: url.port ?? usualPort, serial: serial, checkCode: code)
    }

    func description(of endpoint: StatusEndpoint, host: String) -> String {
        "flashforge://\(host):\(endpoint.port)?serial=\(TerminalText.safe(endpoint.serial ?? ""))&key=\(Redactor.mask)"
    }

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection {
        FlashforgeConnection(api: Self.api(endpoint))
    }

    /// The printer's camera, the `cameraStreamUrl` of its `/detail`; none when it has none.
    func importCameras(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [ImportedCamera] {
        let answer = try Self.api(endpoint).answer("/detail", stop: stop)
        guard let url = FlashforgeReport(detail: answer["detail"] as? [String: Any] ?? [:]).cameraURL else { return [] }
        return [ImportedCamera(name: tr("Printer camera"), service: "mjpeg", url: url.absoluteString)]
    }

    private static func api(_ endpoint: StatusEndpoint) -> FlashforgeAPI {
        FlashforgeAPI(baseURL: endpoint.baseURL!, serial: endpoint.serial ?? "", checkCode: endpoint.secret ?? "")
    }
}

extension StatusEndpoint {
    /// The HTTP API's port on the Adventurer 5M family (../shared/PROTOCOLS.md §13).
    public static let flashforgePort = 8898

    /// A Flashforge printer's HTTP API, its serial number and check code.
    public static func flashforge(host: String, port: Int, serial: String, checkCode: String) -> StatusEndpoint {
        StatusEndpoint(family: FlashforgeStatusFamily(), host: host, port: port, secret: checkCode, serial: serial)
    }
}
