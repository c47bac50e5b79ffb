import Foundation
import StreamKit

/// Sending a 3MF project to a Bambu printer (PROTOCOLS.md §9, §14): refused before anything is
/// sent while the printer's report says its firmware wants signed commands (Developer Mode off);
/// otherwise stored at the root of its storage over implicit FTPS, as `bblp` with the access code,
/// for `PrintCommand.printFile` (`project_file`) to start through the status connection. The
/// part of a cancelled or broken upload is deleted, so no print can start from it.
public enum BambuUpload {
    /// The printer's implicit-FTPS port.
    public static let port = 990
    /// The FTP user, as for MQTT.
    static let user = "bblp"

    static func send(_ file: PrintFile, to endpoint: StatusEndpoint, filePort: Int, stop: StopSignal,
                     progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        do {
            // The printer's own report says whether it would start the file; its login checks the code.
            if try StatusCheck.run(endpoint, stop: stop)?.needsDeveloperMode == true {
                return .refused(CommandOutcome.developerModeHint)
            }
        } catch {
            return stop.isStopped ? .cancelled : .failed(error)
        }
        if stop.isStopped { return .cancelled }
        let client: FTPSClient
        do {
            client = try FTPSClient(host: endpoint.host, port: filePort, user: user, password: endpoint.secret ?? "", stop: stop)
        } catch {
            return stop.isStopped ? .cancelled : .failed(error)
        }
        defer { client.quit() }
        let outcome: UploadOutcome
        do {
            let stored = try client.store(file.name, from: file.url.path, stop: stop) { sent in
                progress(UploadProgress(sent: sent, total: file.size))
            }
            if stored { return .uploaded(remoteName: file.name) }
            outcome = .cancelled
        } catch {
            outcome = stop.isStopped ? .cancelled : .failed(error)
        }
        if let part = client.partial { client.delete(part) }
        return outcome
    }

    /// The name a print of the project `name` shows: the file's, without `.gcode.3mf` or `.3mf`.
    static func jobName(_ name: String) -> String {
        for suffix in [".gcode.3mf", ".3mf"] where name.lowercased().hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count))
        }
        return name
    }
}
