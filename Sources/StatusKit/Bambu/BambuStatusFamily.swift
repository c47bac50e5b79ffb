import Foundation
import StreamKit

/// The Bambu Lab family's status side: its LAN MQTT broker (TLS, user `bblp`, password = access
/// code), `bambu://bblp:CODE@HOST[:PORT]?serial=SERIAL`; files go to its storage over FTPS
/// (`BambuUpload`).
struct BambuStatusFamily: StatusURLFamily {
    let declared = StatusDeclaration(scheme: "bambu", usualPort: StatusEndpoint.bambuPort,
                                     urlExample: "bambu://bblp:CODE@HOST?serial=SERIAL", traits: [.speedProfiles, .switchableLight])
    /// The port of the printer's implicit FTPS (990; another for a test's printer).
    var filePort = BambuUpload.port
    var cameraListRefusal: String? { tr("a Bambu printer has one camera: add it with its access code") }

    func endpoint(_ url: URLComponents, host: String, key: String?, secret: String?) throws(StatusEndpoint.ParseError) -> StatusEndpoint {
        let code = try required(secret ?? url.password?.removingPercentEncoding ?? url.password,
                                missing: tr("a bambu:// URL needs the access code: bambu://bblp:CODE@HOST?serial=SERIAL"))
        let serial = url.query(item: "serial").flatMap { $0.isEmpty ? nil : $0 }
        return .bambu(host: host, port: url.port ?? usualPort, accessCode: code, serial: serial)
    }

    func description(of endpoint: StatusEndpoint, host: String) -> String {
        "bambu://bblp:\(Redactor.mask)@\(host):\(endpoint.port)" + (endpoint.serial.map { "?serial=\($0)" } ?? "")
    }

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection {
        BambuConnection(host: endpoint.host, port: endpoint.port, accessCode: endpoint.secret ?? "", serial: endpoint.serial, log: log)
    }

    func refusal(of kind: PrintFile.Kind) -> String? {
        kind == .project3MF ? nil : tr("Bambu Lab printers print 3MF projects sliced for them, not G-code files")
    }

    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        if let refusal = refusal(of: file.kind) { return .refused(refusal) }
        return BambuUpload.send(file, to: endpoint, filePort: filePort, stop: stop, progress: progress)
    }
}

extension StatusEndpoint {
    public static let bambuPort = 8883

    /// A Bambu printer's LAN MQTT broker; the access code is its password. Files go to its FTPS
    /// on `filePort`.
    public static func bambu(host: String, port: Int, accessCode: String, serial: String?,
                             filePort: Int = BambuUpload.port) -> StatusEndpoint {
        StatusEndpoint(family: BambuStatusFamily(filePort: filePort), host: host, port: port, secret: accessCode, serial: serial)
    }
}
