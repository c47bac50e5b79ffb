import Foundation
import StreamKit

/// The Creality family's status side: the printer's LAN websocket (K1, K2, Hi, Ender-3 V3
/// families), which wants no login, `creality://HOST[:PORT]`.
struct CrealityStatusFamily: AddressOnlyStatusFamily {
    let declared = StatusDeclaration(scheme: "creality", usualPort: StatusEndpoint.crealityPort, urlExample: "creality://HOST",
                                     traits: .switchableLight)

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection {
        CrealityConnection(host: endpoint.host, port: endpoint.port, log: log)
    }
}

extension StatusEndpoint {
    /// Creality Print's and ha_creality_ws's websocket port (const.py `WS_PORT`).
    public static let crealityPort = 9999

    /// A Creality printer's LAN websocket.
    public static func creality(host: String, port: Int) -> StatusEndpoint {
        StatusEndpoint(family: CrealityStatusFamily(), host: host, port: port)
    }
}
