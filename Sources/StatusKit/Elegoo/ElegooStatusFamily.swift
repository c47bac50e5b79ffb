import Foundation
import StreamKit

/// The Elegoo family's status side: a Centauri Carbon's SDCP V3 websocket, which wants no login,
/// `elegoo://HOST[:PORT]`. Its one camera is the MJPEG stream the status connection turns on.
struct ElegooStatusFamily: AddressOnlyStatusFamily {
    let declared = StatusDeclaration(scheme: "elegoo", usualPort: StatusEndpoint.elegooPort, urlExample: "elegoo://HOST",
                                     traits: [.switchableLight, .turnsCameraOn])

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection {
        ElegooConnection(host: endpoint.host, port: endpoint.port, log: log)
    }

    /// The camera the printer names when its video is turned on (Cmd 386's `VideoUrl`).
    func importCameras(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [ImportedCamera] {
        guard let url = try ElegooConnection.videoURL(at: endpoint, stop: stop) else { return [] }
        return [ImportedCamera(name: tr("Camera"), service: "mjpeg", url: url)]
    }

    /// The printer's own history (`ElegooHistory`), on a short connection of its own.
    func printerHistory(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [RememberedPrint] {
        try ElegooHistory.ask(endpoint, stop: stop)
    }

    func refusal(of kind: PrintFile.Kind) -> String? {
        kind == .gcode ? nil : tr("The Elegoo Centauri Carbon prints G-code files, not 3MF projects or binary G-code")
    }

    /// Its HTTP upload (`ElegooUpload`); Cmd 128 then starts the file through the status connection.
    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        if let refusal = refusal(of: file.kind) { return .refused(refusal) }
        return ElegooUpload.send(file, to: endpoint, stop: stop, progress: progress)
    }

    /// Cmd 386 on a connection of its own, for a camera opened without the status (`layerwatch probe`).
    func turnCameraOn(at endpoint: StatusEndpoint, stop: StopSignal?) {
        _ = try? ElegooConnection.videoURL(at: endpoint, stop: stop)
    }
}

extension StatusEndpoint {
    /// The SDCP websocket's port on a Centauri Carbon (PROTOCOLS.md §11).
    public static let elegooPort = 3030
    /// The port its camera's MJPEG stream answers on once the video is on.
    public static let elegooCameraPort = 3031

    /// An Elegoo Centauri Carbon's SDCP websocket.
    public static func elegoo(host: String, port: Int) -> StatusEndpoint {
        StatusEndpoint(family: ElegooStatusFamily(), host: host, port: port)
    }
}
