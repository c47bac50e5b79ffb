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

    /// Creality documents no way to send a file. What slicers do (OrcaSlicer's CrealityPrint host:
    /// a multipart POST to `http://HOST/upload/NAME`, then `opGcodeFile` on this websocket) differs
    /// between the K1 and K2 families, and a K2 starts only with its CFS slots mapped for the print
    /// (started without, it runs dry): not done until it can be done right for each model.
    func refusal(of kind: PrintFile.Kind) -> String? {
        tr("Layerwatch cannot send files to Creality printers yet: Creality publishes no way to do it, and a K2 needs its filament slots chosen for each print. Send the file from Creality Print, then watch the print here.")
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
