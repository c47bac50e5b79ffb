import Foundation
import StreamKit

/// Sending a file to an OctoPrint printer: `POST /api/files/local` with `select=true` and
/// `print=true`, which stores it and starts it in one request (PROTOCOLS.md §14); OctoPrint answers
/// 409 when its printer is not operational.
extension OctoPrintStatusFamily {
    func refusal(of kind: PrintFile.Kind) -> String? {
        switch kind {
        case .gcode: return nil
        case .binaryGCode: return tr("OctoPrint prints text G-code files, not binary G-code")
        case .project3MF: return tr("OctoPrint prints G-code files, not 3MF projects")
        }
    }

    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        if let refusal = refusal(of: file.kind) { return .refused(refusal) }
        return HTTPStatusAPI(baseURL: endpoint.baseURL!, key: ("X-Api-Key", endpoint.secret ?? ""))
            .upload(file, to: "/api/files/local",
                    form: .multipart(field: "file", fields: [("select", "true"), ("print", "true")]),
                    removal: .delete(path: "/api/files/local/" + HTTPStatusAPI.pathSegment(file.name)), stop: stop, progress: progress)
    }
}
