import Foundation
import StreamKit

/// The Creality family's status side: the printer's LAN websocket (K1, K2, Hi, Ender-3 V3
/// families), which wants no login, `creality://HOST[:PORT]`; files go to its web server
/// (`CrealityUpload`).
struct CrealityStatusFamily: AddressOnlyStatusFamily {
    let declared = StatusDeclaration(scheme: "creality", usualPort: StatusEndpoint.crealityPort, urlExample: "creality://HOST",
                                     traits: .switchableLight)
    /// The port of the printer's web server, which takes files (80; another for a test's printer).
    var uploadPort = CrealityUpload.port

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection {
        CrealityConnection(host: endpoint.host, port: endpoint.port, log: log)
    }

    func refusal(of kind: PrintFile.Kind) -> String? {
        kind == .gcode ? nil : tr("Creality printers print G-code files, not 3MF projects or binary G-code")
    }

    /// Its web server's upload (`CrealityUpload`, only to the models known to take it); `opGcodeFile`
    /// then starts the file through the status connection.
    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        if let refusal = refusal(of: file.kind) { return .refused(refusal) }
        return CrealityUpload.send(file, to: endpoint, uploadPort: uploadPort, stop: stop, progress: progress)
    }
}

extension StatusEndpoint {
    /// Creality Print's and ha_creality_ws's websocket port (const.py `WS_PORT`).
    public static let crealityPort = 9999

    /// A Creality printer's LAN websocket. Files go to its web server on `uploadPort`.
    public static func creality(host: String, port: Int, uploadPort: Int = CrealityUpload.port) -> StatusEndpoint {
        StatusEndpoint(family: CrealityStatusFamily(uploadPort: uploadPort), host: host, port: port)
    }
}
