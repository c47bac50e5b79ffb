import Foundation
import StreamKit

/// Sending G-code to a Creality printer as OrcaSlicer's CrealityPrint host does (SoftFever/OrcaSlicer
/// src/slic3r/Utils/CrealityPrint.cpp; Creality documents no way): a multipart `POST
/// http://HOST/upload/NAME` (port 80, the file in the part `file` after an empty `path`, spaces in
/// the name made `_` as there), then `PrintCommand.printFile` with the file's path on the printer
/// sends `opGcodeFile` through the status connection. Only to a model whose firmware is known to keep
/// its files where that path says (`CrealityModel.gcodeFolder`): so the model is asked first, on a
/// short connection to the status websocket (`CrealityIdentity`), and any other is refused before a
/// byte goes. The printer's HTTP side deletes nothing: what a cancelled or broken upload left is
/// deleted as the printer's own web page deletes a file, `opGcodeFile` `deleteprt:` and its path
/// (`removePartial`), and never printed.
public enum CrealityUpload {
    /// The printer's web server, which takes the upload.
    public static let port = 80

    static func send(_ file: PrintFile, to endpoint: StatusEndpoint, uploadPort: Int, stop: StopSignal,
                     progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        let identity: CrealityIdentity
        do {
            identity = try CrealityIdentity.read(host: endpoint.host, port: endpoint.port, stop: stop)
        } catch {
            return stop.isStopped ? .cancelled : .failed(error)
        }
        if stop.isStopped { return .cancelled }
        guard let model = CrealityModel(identity) else {
            return .refused(tr("Layerwatch sends files only to Creality K1 and Ender-3 V3 printers, and this one did not say its model. Send the file from Creality Print."))
        }
        guard let folder = model.gcodeFolder else {
            return .refused(String(format: tr("A Creality %@ starts a print only with its filament slots chosen for it. Send the file from Creality Print, then watch the print here."),
                                   model.displayName))
        }
        guard let base = URL(string: "http://\(StreamSource.bracketed(endpoint.host)):\(uploadPort)/") else {
            return .failed(.protocolError(tr("the printer's name could not be resolved")))
        }
        let name = file.name.replacingOccurrences(of: " ", with: "_")
        let outcome = HTTPStatusAPI(baseURL: base, key: nil)
            .upload(file, to: "upload/" + HTTPStatusAPI.pathSegment(name), form: .multipart(field: "file", fields: [("path", "")]),
                    removal: .other { removePartial(folder + name, at: endpoint) }, stop: stop, progress: progress)
        // A 2xx answer only says the file is stored: the status connection starts it.
        return outcome == .started ? .uploaded(remoteName: folder + name) : outcome
    }

    /// Deletes what an interrupted upload left at `path` on the printer: a `set` of `opGcodeFile`
    /// `deleteprt:` and the path on a short connection to the status websocket, which the printer
    /// does not answer (its firmware's `opGcodeFileProc` removes a path within its storage;
    /// Graf17/K1Control fileops.py `delete_file`; Erinell/Creality-K2-websocket API.md "Delete gode
    /// file"). A printer that cannot be reached keeps the part, never printed.
    static func removePartial(_ path: String, at endpoint: StatusEndpoint) {
        guard let socket = try? WebSocketClient(host: endpoint.host, port: endpoint.port, timeout: CrealityConnection.connectTimeout,
                                                stop: StopSignal()) else { return }
        defer { socket.close() }
        socket.send(text: CrealityConnection.request("set", ["opGcodeFile": "deleteprt:" + path]))
        // Sends the request (the printer's first status ends the wait).
        _ = try? socket.receive(waiting: 1)
    }
}
