import Foundation
import StreamKit

/// Sending a file to a Prusa printer: PrusaLink's `PUT /api/v1/files/usb/NAME` with the file as
/// the body and `Print-After-Upload: ?1` (PROTOCOLS.md §12), `Overwrite: ?1` so a file sent again
/// replaces the one of its name. The Digest challenge comes first from a cheap `GET /api/version`,
/// so the file goes once, with its answer; the firmware writes the file straight to the USB
/// stick, so a cancelled upload's partial file is deleted.
extension PrusaLinkStatusFamily {
    func refusal(of kind: PrintFile.Kind) -> String? {
        kind == .project3MF ? tr("Prusa printers print G-code and binary G-code files, not 3MF projects") : nil
    }

    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        if let refusal = refusal(of: file.kind) { return .refused(refusal) }
        let digest = HTTPDigest(user: PrusaLinkConnection.user, password: endpoint.secret ?? "", keyHeader: "X-Api-Key")
        let api = HTTPStatusAPI(baseURL: endpoint.baseURL!, key: nil, digest: digest)
        do throws(HTTPFetch.Failure) {
            _ = try api.object("/api/version", stop: stop)
        } catch {
            return stop.isStopped ? .cancelled : .failed(StatusFailure(error.failure))
        }
        let path = "/api/v1/files/usb/" + HTTPStatusAPI.pathSegment(file.name)
        return api.upload(file, to: path, method: "PUT", form: .raw, extra: [("Print-After-Upload", "?1"), ("Overwrite", "?1")],
                          removal: .delete(path: path), stop: stop, progress: progress)
    }
}
