import Foundation
import StreamKit

/// Sending a file to a Klipper printer: Moonraker's `POST /server/files/upload` with `print=true`,
/// which stores it among the G-code files and starts it in one request (PROTOCOLS.md §14).
extension MoonrakerStatusFamily {
    func refusal(of kind: PrintFile.Kind) -> String? {
        switch kind {
        case .gcode: return nil
        case .binaryGCode: return tr("Klipper prints text G-code files, not binary G-code")
        case .project3MF: return tr("Klipper prints G-code files, not 3MF projects")
        }
    }

    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        if let refusal = refusal(of: file.kind) { return .refused(refusal) }
        return api(endpoint).upload(file, to: "/server/files/upload",
                                    form: .multipart(field: "file", fields: [("root", "gcodes"), ("print", "true")]),
                                    removal: .delete(path: "/server/files/gcodes/" + HTTPStatusAPI.pathSegment(file.name)),
                                    stop: stop, progress: progress)
    }
}
